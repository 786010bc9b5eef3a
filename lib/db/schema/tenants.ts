import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  DEFAULT_AUDIT_LOG_SETTINGS,
  DEFAULT_BRANDING,
  DEFAULT_MFA_POLICY,
  DEFAULT_PASSKEY_POLICY,
  DEFAULT_PLATFORM_SETTINGS,
  DEFAULT_UAF_SETTINGS,
} from "@/lib/settings/defaults";
import type {
  AuditLogSettings,
  BrandingSettings,
  PlatformSettings,
  UafSettings,
  SigningAlgorithm,
  WebauthnPolicy,
} from "@/lib/settings/schemas";

export { SIGNING_ALGORITHMS, type SigningAlgorithm } from "@/lib/settings/schemas";

// The jsonb settings sections are typed, validated and defaulted in lib/tenants (schemas.ts, defaults.ts).
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
    /** Audit log retention. */
    auditLog: jsonb("audit_log").$type<AuditLogSettings>().notNull().default(DEFAULT_AUDIT_LOG_SETTINGS),
    /**
     * The console's own tenant (lib/operators): operators' passkeys and sign-in log. Hidden from every
     * tenant-scoped surface and from tenant listings.
     */
    system: boolean("system").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one system tenant (lib/operators), so racing instances cannot create two.
    uniqueIndex("tenants_system")
      .on(t.system)
      .where(sql`${t.system}`),
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
