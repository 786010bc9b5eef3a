import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const SIGNING_ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export const USER_VERIFICATION = ["required", "preferred", "discouraged"] as const;
export const ATTESTATION = ["none", "indirect", "direct", "enterprise"] as const;
export const RESIDENT_KEY = ["required", "preferred", "discouraged"] as const;
export const ATTACHMENT = ["platform", "cross-platform"] as const;

/** How a tenant's WebAuthn ceremonies ask for and check credentials (Hanko's `webauthn` / `mfa` config). */
export interface WebauthnPolicy {
  userVerification: (typeof USER_VERIFICATION)[number];
  attestation: (typeof ATTESTATION)[number];
  residentKey: (typeof RESIDENT_KEY)[number];
  /** Unset: any authenticator. */
  attachment: (typeof ATTACHMENT)[number] | null;
}

/** Hanko's defaults: passkeys are discoverable and user-verifying; MFA keys are roaming security keys. */
export const DEFAULT_PASSKEY_POLICY: WebauthnPolicy = {
  userVerification: "required",
  attestation: "direct",
  residentKey: "required",
  attachment: null,
};
export const DEFAULT_MFA_POLICY: WebauthnPolicy = {
  userVerification: "preferred",
  attestation: "direct",
  residentKey: "discouraged",
  attachment: "cross-platform",
};

/** How a tenant's Authenticator API (FIDO UAF) builds requests and trusts authenticators. */
export interface UafSettings {
  /** header.appID: the HTTPS URL of a Trusted Facets list, or "" (the app's own FacetID is the AppID). */
  appId: string;
  /** Trusted FacetIDs (web origins, `android:apk-key-hash:…`, `ios:bundle-id:…`); empty = the tenant's origins. */
  facetIds: string[];
  /** Attestation roots (PEM) trusted for basic full attestation, for any AAID. */
  trustedRoots: string[];
  /** Accept basic surrogate (self) attestation, as most phone authenticators send. */
  allowSurrogate: boolean;
  /** When not empty, only these AAIDs may register (the REG policy lists them). */
  acceptedAaids: string[];
  /** Accept authenticators of the FIDO test vendor `FFFF` (Sesame's software authenticator): demo and test tenants. */
  allowTestAuthenticators: boolean;
}

export const DEFAULT_UAF_SETTINGS: UafSettings = {
  appId: "",
  facetIds: [],
  trustedRoots: [],
  allowSurrogate: true,
  acceptedAaids: [],
  allowTestAuthenticators: false,
};

/** Sessions, sign-up and credential rules of the public API (issue 5), Hanko's config names in comments. */
export interface PlatformSettings {
  /** Public API version: 3 removes the endpoints deprecated in 2 (they answer 404). */
  apiVersion: 2 | 3;
  session: {
    /** At most this many sessions per user; the oldest go first (`session.limit`). */
    limit: number;
    /** Sessions unused this long end; 0 = off (`session.idle_timeout`). */
    idleTimeoutSeconds: number;
    /** `X-Auth-Token` response header instead of a cookie (`session.enable_auth_token_header`). */
    crossDomain: boolean;
    cookie: {
      name: string;
      secure: boolean;
      sameSite: "strict" | "lax" | "none";
      /** Unset: host-only. */
      domain: string | null;
      /** `session`: no Max-Age (ends with the browser). */
      retention: "persistent" | "session";
    };
  };
  password: { enabled: boolean; minLength: number };
  emails: { requireVerification: boolean; maxPerUser: number };
  account: { allowSignup: boolean; allowDeletion: boolean };
  /**
   * Passkeys in the flow API: offered for login, and at registration (`optional`: the user may skip
   * creating one; with passwords also enabled the user chooses).
   */
  passkeys: { enabled: boolean; optional: boolean };
  /** Login with a code mailed to the address (flow API). Registration always verifies the address. */
  passcodes: { enabled: boolean };
  /** Usernames: asked at registration (`required` or optional) and accepted as a login identifier. */
  username: { enabled: boolean; required: boolean; minLength: number; maxLength: number };
  /** Second factors a user may set up in the profile and is then asked for at login. */
  mfa: { enabled: boolean; totp: boolean; securityKeys: boolean };
  /** Per endpoint group: `points` requests per `durationSeconds`, per IP and per user. */
  rateLimits: Record<string, { points: number; durationSeconds: number }>;
}

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = {
  apiVersion: 2,
  session: {
    limit: 5,
    idleTimeoutSeconds: 0,
    crossDomain: false,
    cookie: { name: "hanko", secure: true, sameSite: "strict", domain: null, retention: "persistent" },
  },
  password: { enabled: false, minLength: 8 },
  emails: { requireVerification: true, maxPerUser: 5 },
  account: { allowSignup: true, allowDeletion: false },
  passkeys: { enabled: true, optional: false },
  passcodes: { enabled: true },
  username: { enabled: false, required: false, minLength: 3, maxLength: 32 },
  mfa: { enabled: true, totp: true, securityKeys: true },
  rateLimits: {
    passcode: { points: 10, durationSeconds: 60 },
    password: { points: 10, durationSeconds: 60 },
  },
};

/** How the hosted login, profile and logout pages look (docs/hosted-pages.md). */
export interface BrandingSettings {
  /** Name shown on the hosted pages (heading, logo alt text); unset: the tenant's name. */
  displayName: string | null;
  /** `#rrggbb`: buttons and accents. */
  primaryColor: string;
  /** `#rrggbb`: the card behind the elements. */
  backgroundColor: string;
  /** `#rrggbb`: text on the background. */
  textColor: string;
  /** An https URL (http only on localhost, for development); unset: no logo. */
  logoUrl: string | null;
}

export const DEFAULT_BRANDING: BrandingSettings = {
  displayName: null,
  primaryColor: "#4f46e5",
  backgroundColor: "#ffffff",
  textColor: "#0f172a",
  logoUrl: null,
};

export const tenants = pgTable(
  "tenants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** WebAuthn relying party. */
    rpId: text("rp_id").notNull(),
    rpName: text("rp_name").notNull(),
    /** Origins allowed for WebAuthn ceremonies, CORS and redirects (exact `scheme://host[:port]`). */
    origins: text("origins")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** How long a WebAuthn challenge stays usable. */
    challengeTtlSeconds: integer("challenge_ttl_seconds").notNull().default(300),
    /** How long an Authenticator (UAF) request stays PENDING (`validUntil - createdAt`). */
    requestTtlSeconds: integer("request_ttl_seconds").notNull().default(120),
    sessionLifetimeSeconds: integer("session_lifetime_seconds").notNull().default(3600),
    passcodeTtlSeconds: integer("passcode_ttl_seconds").notNull().default(300),
    /** Lifetime of the JWT the Passkey API returns on finalize. */
    tokenLifetimeSeconds: integer("token_lifetime_seconds").notNull().default(300),
    /** Algorithm of newly generated signing keys. */
    signingAlgorithm: text("signing_algorithm").$type<SigningAlgorithm>().notNull().default("RS256"),
    /** Passkey (first factor) registration and login. */
    passkeyPolicy: jsonb("passkey_policy").$type<WebauthnPolicy>().notNull().default(DEFAULT_PASSKEY_POLICY),
    /** MFA (second factor) registration and login. */
    mfaPolicy: jsonb("mfa_policy").$type<WebauthnPolicy>().notNull().default(DEFAULT_MFA_POLICY),
    /** Authenticator API (FIDO UAF) settings. */
    uaf: jsonb("uaf").$type<UafSettings>().notNull().default(DEFAULT_UAF_SETTINGS),
    /** Public API: sessions, passwords, emails, account rules, API version, rate limits. */
    platform: jsonb("platform").$type<PlatformSettings>().notNull().default(DEFAULT_PLATFORM_SETTINGS),
    /** Hosted pages: display name, colours, logo. */
    branding: jsonb("branding").$type<BrandingSettings>().notNull().default(DEFAULT_BRANDING),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("tenants_challenge_ttl", sql`${t.challengeTtlSeconds} between 10 and 3600`),
    check("tenants_request_ttl", sql`${t.requestTtlSeconds} between 10 and 600`),
    check("tenants_session_lifetime", sql`${t.sessionLifetimeSeconds} between 60 and 31536000`),
    // ASVS 6.5.5 / NIST 800-63B cap out-of-band codes at 10 minutes.
    check("tenants_passcode_ttl", sql`${t.passcodeTtlSeconds} between 60 and 600`),
    check("tenants_token_lifetime", sql`${t.tokenLifetimeSeconds} between 10 and 86400`),
    check("tenants_signing_algorithm", sql`${t.signingAlgorithm} in ('RS256', 'ES256', 'EdDSA')`),
  ],
);

export type TenantRow = typeof tenants.$inferSelect;
