import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";

/**
 * A user's account at a third-party provider (OAuth 2.0 / OIDC) or a SAML identity provider: the provider's
 * stable subject id is the key, never the email. Owned by lib/identities.
 */
export const identities = pgTable(
  "identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `oauth` (built-in or custom OAuth 2.0 / OIDC provider) or `saml`. */
    kind: text("kind").notNull(),
    /** The provider's slug (`google`, `custom-acme`) or the SAML identity provider's id. */
    providerId: text("provider_id").notNull(),
    /** The provider's id of the account (`sub`, GitHub's numeric id, SAML NameID). */
    subject: text("subject").notNull(),
    /** The address the provider last asserted (lower-cased), and whether it said it was verified. */
    email: text("email"),
    emailVerified: boolean("email_verified").notNull().default(false),
    /** The provider's claims as last received (profile data only: never tokens). */
    claims: jsonb("claims")
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Provider tokens, sealed with the master secret; only when the provider's settings ask to keep them. */
    tokensSealed: text("tokens_sealed"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("identities_tenant_provider_subject").on(t.tenantId, t.kind, t.providerId, t.subject),
    index("identities_user").on(t.userId, t.createdAt),
  ],
);
export type IdentityRow = typeof identities.$inferSelect;

/** A tenant's OAuth 2.0 / OIDC provider (built-in kind or custom). Owned by lib/thirdparty. */
export const thirdPartyProviders = pgTable(
  "third_party_providers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The name in URLs and the flow (`google`, `github`, `custom-acme`). */
    slug: text("slug").notNull(),
    /** `google` | `github` | `apple` | `microsoft` | `discord` | `linkedin` | `gitlab` | `facebook` | `oidc` | `oauth2`. */
    kind: text("kind").notNull(),
    displayName: text("display_name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    clientId: text("client_id").notNull(),
    /** Sealed with the master secret (purpose `third-party-secret`, context tenant/slug). */
    clientSecretSealed: text("client_secret_sealed"),
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Kind-specific settings (issuer, endpoints, user-info mapping, Microsoft tenant, Apple team…). */
    options: jsonb("options")
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Origins or URLs a login through this provider may return to, on top of the tenant's allowed origins. */
    allowedRedirectUrls: text("allowed_redirect_urls")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Link to an existing user by a verified email from the provider. */
    allowLinking: boolean("allow_linking").notNull().default(false),
    /** Keep the provider's tokens (sealed) on the identity. */
    storeTokens: boolean("store_tokens").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("third_party_providers_tenant_slug").on(t.tenantId, t.slug)],
);
export type ThirdPartyProviderRow = typeof thirdPartyProviders.$inferSelect;

/**
 * One started authorization (OAuth `state`): single use, consumed with DELETE … RETURNING; bound to the
 * browser by the hash of a cookie value. Owned by lib/thirdparty.
 */
export const thirdPartyStates = pgTable(
  "third_party_states",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    providerSlug: text("provider_slug").notNull(),
    /** SHA-256 (hex) of the `state` parameter. */
    stateHash: text("state_hash").notNull(),
    /** SHA-256 (hex) of the browser-binding cookie's value. */
    browserHash: text("browser_hash").notNull(),
    /** PKCE verifier and OIDC nonce, sealed. */
    secretsSealed: text("secrets_sealed").notNull(),
    redirectTo: text("redirect_to").notNull(),
    /**
     * SHA-256 (hex) of the PKCE-style `code_verifier` the elements sent with `thirdparty_oauth` (Hanko's
     * elements keep it in sessionStorage): the one-time token of this sign-in is only exchanged with it.
     */
    codeChallenge: text("code_challenge"),
    /** Set when a signed-in user connects this provider (profile flow): the identity is linked to this user. */
    linkUserId: uuid("link_user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Where the result goes: `flow` (one-time token back to the elements) or `api` (deprecated /thirdparty/auth). */
    origin: text("origin").notNull().default("flow"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("third_party_states_hash").on(t.stateHash),
    index("third_party_states_expiry").on(t.expiresAt),
  ],
);
export type ThirdPartyStateRow = typeof thirdPartyStates.$inferSelect;

/** A tenant's SAML identity provider. Owned by lib/saml. */
export const samlIdentityProviders = pgTable(
  "saml_identity_providers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Lower-cased email domains this IdP serves (unique per tenant). */
    domains: text("domains")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    metadataUrl: text("metadata_url"),
    metadataXml: text("metadata_xml"),
    /** Parsed from the metadata: the IdP's entity id, SSO URL (HTTP-Redirect) and signing certificates (PEM). */
    entityId: text("entity_id").notNull(),
    ssoUrl: text("sso_url").notNull(),
    certificates: text("certificates")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Attribute names for email, name and groups. */
    attributeMapping: jsonb("attribute_mapping")
      .notNull()
      .default(sql`'{}'::jsonb`),
    /**
     * Certificates a metadata refresh brought while `requireCertificateConfirmation` is on: kept aside,
     * never used to verify, until an operator confirms (then they become `certificates`) or rejects them.
     */
    pendingCertificates: text("pending_certificates")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** A refresh with changed certificates waits for confirmation instead of taking them. */
    requireCertificateConfirmation: boolean("require_certificate_confirmation").notNull().default(false),
    signRequests: boolean("sign_requests").notNull().default(false),
    /** Link to an existing user with the asserted email of one of `domains`. */
    allowLinking: boolean("allow_linking").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index("saml_identity_providers_tenant").on(t.tenantId)],
);
export type SamlIdentityProviderRow = typeof samlIdentityProviders.$inferSelect;

/** An AuthnRequest sent to an IdP: its id is checked against `InResponseTo`, once. Owned by lib/saml. */
export const samlRequests = pgTable(
  "saml_requests",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The AuthnRequest's ID. */
    requestId: text("request_id").notNull(),
    idpId: uuid("idp_id")
      .notNull()
      .references(() => samlIdentityProviders.id, { onDelete: "cascade" }),
    redirectTo: text("redirect_to").notNull(),
    /**
     * SHA-256 (hex) of the binding cookie of the browser that started the sign-in: the response is
     * accepted only from that browser (no login CSRF with an attacker's own valid response).
     */
    browserHash: text("browser_hash"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.requestId] }), index("saml_requests_expiry").on(t.expiresAt)],
);
export type SamlRequestRow = typeof samlRequests.$inferSelect;

/** Assertion ids already consumed, kept until the assertion would have expired: a replay is refused. */
export const samlAssertions = pgTable(
  "saml_assertions",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    idpId: uuid("idp_id").notNull(),
    assertionId: text("assertion_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.idpId, t.assertionId] }),
    index("saml_assertions_expiry").on(t.expiresAt),
  ],
);

/** The tenant's SAML service-provider key pair: private key sealed, self-signed certificate (PEM). */
export const samlServiceProviderKeys = pgTable("saml_service_provider_keys", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  privateKeySealed: text("private_key_sealed").notNull(),
  certificate: text("certificate").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
