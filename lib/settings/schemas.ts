import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { aaidSchema } from "@/lib/ceremonies/uaf";
import { settingsPatch } from "./settings-patch";

/** The JWT signing algorithms a tenant may choose (its signing keys are of that kind). */
export const SIGNING_ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

/*
 * Each settings section (a jsonb column of `tenants`) is declared once, here: its TypeScript type is the
 * schema's output, its patch schema is derived (settingsPatch), its defaults sit in ./defaults.ts (client
 * code imports them) and one merge (./merge-settings.ts) applies patches and completes stored rows.
 */

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export const RpId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(HOSTNAME, "must be a host name without scheme or port, such as example.com or localhost");

/** An exact web origin: scheme, host and optional port, nothing else. */
export const Origin = z
  .url({ protocol: /^https?$/, error: "must be an http(s) origin such as https://example.com" })
  .max(2048, "must be at most 2048 characters")
  // zod runs refinements after a failed format check too: only a parsed URL is compared (`foo` was a 500).
  .refine((value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, ""), {
    error: "must be an origin only (scheme://host[:port]), without path, query or fragment",
    when: (payload) => payload.issues.length === 0,
  })
  .transform((value) => new URL(value).origin);

const seconds = (min: number, max: number) =>
  z.number().int().min(min, `must be at least ${min} seconds`).max(max, `must be at most ${max} seconds`);

/** How a tenant's WebAuthn ceremonies ask for and check credentials (Hanko's `webauthn` / `mfa` config). */
export const WebauthnPolicy = z.object({
  userVerification: z.enum(["required", "preferred", "discouraged"]),
  attestation: z.enum(["none", "indirect", "direct", "enterprise"]),
  residentKey: z.enum(["required", "preferred", "discouraged"]),
  /** Unset: any authenticator. */
  attachment: z.enum(["platform", "cross-platform"]).nullable(),
});
export type WebauthnPolicy = z.output<typeof WebauthnPolicy>;

/** A UAF FacetID: a web origin, `android:apk-key-hash:<base64>` or `ios:bundle-id:<id>`. */
const FacetId = z
  .string()
  .trim()
  .max(512)
  .refine(
    (value) =>
      /^android:apk-key-hash:[A-Za-z0-9+/_=-]{1,128}$/.test(value) ||
      /^ios:bundle-id:[A-Za-z0-9.-]{1,255}$/.test(value) ||
      Origin.safeParse(value).success,
    "must be an origin, android:apk-key-hash:… or ios:bundle-id:…",
  );

const PemCertificate = z
  .string()
  .max(16_384)
  .regex(/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/, "must be a PEM certificate")
  .refine((pem) => {
    try {
      const certificate = new X509Certificate(pem);
      return certificate.ca || certificate.checkIssued(certificate);
    } catch {
      return false;
    }
  }, "must be a readable CA or self-signed certificate");

/** How a tenant's Authenticator API (FIDO UAF) builds requests and trusts authenticators. */
export const UafSettings = z.object({
  /** header.appID: the HTTPS URL of a Trusted Facets list, or "" (the app's own FacetID is the AppID). */
  appId: z.union([
    z.literal(""),
    z.url({ protocol: /^https$/, error: "must be an https URL or empty" }).max(512),
  ]),
  /** Trusted FacetIDs (web origins, `android:apk-key-hash:…`, `ios:bundle-id:…`); empty = the tenant's origins. */
  facetIds: z.array(FacetId).max(50),
  /** Attestation roots (PEM) trusted for basic full attestation, for any AAID. */
  trustedRoots: z.array(PemCertificate).max(20),
  /** Accept basic surrogate (self) attestation, as most phone authenticators send. */
  allowSurrogate: z.boolean(),
  /** When not empty, only these AAIDs may register (the REG policy lists them); stored in upper case. */
  acceptedAaids: z.array(aaidSchema.transform((aaid) => aaid.toUpperCase())).max(100),
  /** Accept authenticators of the FIDO test vendor `FFFF` (Sesame's software authenticator): demo and test tenants. */
  allowTestAuthenticators: z.boolean(),
});
export type UafSettings = z.output<typeof UafSettings>;

const CookieName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1 to 64 letters, digits, - or _");

/** Sessions, sign-up and credential rules of the public API (issue 5), Hanko's config names in comments. */
export const PlatformSettings = z.object({
  /** Public API version: 3 removes the endpoints deprecated in 2 (they answer 404). */
  apiVersion: z.union([z.literal(2), z.literal(3)]),
  session: z.object({
    /** At most this many sessions per user; the oldest go first (`session.limit`). */
    limit: z.number().int().min(1).max(100),
    /** Sessions unused this long end; 0 = off (`session.idle_timeout`). */
    idleTimeoutSeconds: z.number().int().min(0).max(31_536_000),
    /** `X-Auth-Token` response header instead of a cookie (`session.enable_auth_token_header`). */
    crossDomain: z.boolean(),
    cookie: z.object({
      name: CookieName,
      secure: z.boolean(),
      sameSite: z.enum(["strict", "lax", "none"]),
      /** Unset: host-only. */
      domain: z
        .string()
        .regex(/^\.?[a-z0-9.-]{1,253}$/i, "must be a domain such as .example.com")
        .nullable(),
      /** `session`: no Max-Age (ends with the browser). */
      retention: z.enum(["persistent", "session"]),
    }),
  }),
  password: z.object({ enabled: z.boolean(), minLength: z.number().int().min(8).max(128) }),
  emails: z.object({ requireVerification: z.boolean(), maxPerUser: z.number().int().min(1).max(100) }),
  account: z.object({ allowSignup: z.boolean(), allowDeletion: z.boolean() }),
  /**
   * Passkeys in the flow API: offered for login, and at registration (`optional`: the user may skip
   * creating one; with passwords also enabled the user chooses).
   */
  passkeys: z.object({ enabled: z.boolean(), optional: z.boolean() }),
  /** Login with a code mailed to the address (flow API). Registration always verifies the address. */
  passcodes: z.object({ enabled: z.boolean() }),
  /** Usernames: asked at registration (`required` or optional) and accepted as a login identifier. */
  username: z
    .object({
      enabled: z.boolean(),
      required: z.boolean(),
      minLength: z.number().int().min(1).max(64),
      maxLength: z.number().int().min(1).max(64),
    })
    .refine((u) => u.minLength <= u.maxLength, "minLength must not exceed maxLength"),
  /** Second factors a user may set up in the profile and is then asked for at login. */
  mfa: z.object({ enabled: z.boolean(), totp: z.boolean(), securityKeys: z.boolean() }),
  /** Per endpoint group: `points` requests per `durationSeconds`, per IP and per user. A patch sets whole groups. */
  rateLimits: z.record(
    z.string().regex(/^[a-z_]{1,32}$/),
    z.object({
      points: z.number().int().min(1).max(100_000),
      durationSeconds: z.number().int().min(1).max(86_400),
    }),
  ),
});
export type PlatformSettings = z.output<typeof PlatformSettings>;

/** `#rrggbb`, stored in lower case. */
export const HexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour in hex notation: # and six hex digits, such as #4f46e5")
  .transform((value) => value.toLowerCase());

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A logo the hosted pages load: https, or http on localhost only (development). */
export const LogoUrl = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.username || url.password) return false;
      return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
    } catch {
      return false;
    }
  }, "must be an https URL (http only on localhost), without user name or password")
  .transform((value) => new URL(value).href);

/** How the hosted login, profile and logout pages look (docs/hosted-pages.md). */
export const BrandingSettings = z.object({
  /** Name shown on the hosted pages (heading, logo alt text); unset: the tenant's name. */
  displayName: z.string().trim().min(1).max(100).nullable(),
  /** `#rrggbb`: buttons and accents. */
  primaryColor: HexColor,
  /** `#rrggbb`: the card behind the elements. */
  backgroundColor: HexColor,
  /** `#rrggbb`: text on the background. */
  textColor: HexColor,
  /** An https URL (http only on localhost, for development); unset: no logo. */
  logoUrl: LogoUrl.nullable(),
});
export type BrandingSettings = z.output<typeof BrandingSettings>;

/** How long the tenant's audit log keeps its events (lib/audit sweeps older ones in the background). */
export const AuditLogSettings = z.object({
  /** Events older than this many days are deleted (1 day to 10 years). */
  retentionDays: z.number().int().min(1, "must be at least 1 day").max(3650, "must be at most 3650 days"),
});
export type AuditLogSettings = z.output<typeof AuditLogSettings>;

/** The settings sections, each one jsonb column of `tenants`; a patch merges field by field (`null` clears). */
export const SettingsSections = z.object({
  /** Passkey (first factor) registration and login. */
  passkeyPolicy: WebauthnPolicy,
  /** MFA (second factor) registration and login. */
  mfaPolicy: WebauthnPolicy,
  uaf: UafSettings,
  platform: PlatformSettings,
  branding: BrandingSettings,
  auditLog: AuditLogSettings,
});
export type SettingsSections = z.output<typeof SettingsSections>;

/** A patch of the sections: every section and field optional; lists and rate-limit groups are set whole. */
export const SettingsPatch = settingsPatch(SettingsSections);
export type SettingsPatch = z.output<typeof SettingsPatch>;

/** Settings a tenant may change; bounds mirror the CHECK constraints in lib/db/schema/tenants.ts. */
export const TenantSettings = z.object({
  name: z.string().trim().min(1).max(100),
  rpId: RpId,
  rpName: z.string().trim().min(1).max(100),
  origins: z.array(Origin).max(50),
  challengeTtlSeconds: seconds(10, 3600),
  requestTtlSeconds: seconds(10, 600),
  sessionLifetimeSeconds: seconds(60, 31_536_000),
  passcodeTtlSeconds: seconds(60, 600),
  tokenLifetimeSeconds: seconds(10, 86_400),
  signingAlgorithm: z.enum(SIGNING_ALGORITHMS),
  ...SettingsSections.shape,
});

export const CreateTenantInput = TenantSettings.partial()
  .extend(SettingsPatch.shape)
  .required({ name: true });
export type CreateTenantInput = z.input<typeof CreateTenantInput>;

export const UpdateTenantInput = TenantSettings.partial().extend(SettingsPatch.shape);
export type UpdateTenantInput = z.input<typeof UpdateTenantInput>;
