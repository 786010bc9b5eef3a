import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";

/**
 * The OpenID Provider's models (oidc-provider's adapter kinds: Session, Interaction, AuthorizationCode,
 * AccessToken, RefreshToken, Grant, ClientCredentials, ReplayDetection, …), one row per model, its
 * payload as oidc-provider wrote it. Owned by lib/openid. Nothing of it sits in process memory, so any
 * instance continues what another started.
 */
export const openidModels = pgTable(
  "openid_models",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** oidc-provider's model name (`AuthorizationCode`, `Session`, …). */
    kind: text("kind").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** The grant a token belongs to: a reused code or refresh token revokes them all. */
    grantId: text("grant_id"),
    /** A session's uid (oidc-provider finds sessions by it). */
    uid: text("uid"),
    /** The Sesame user the model is about, when it names one (a consent, a session, a token). */
    accountId: text("account_id"),
    /**
     * The Sesame session (`sessions.id`) an authorization code, access token or refresh token was issued
     * under (its `sid`): the model is found only while that session is live, and goes when it ends
     * (lib/openid/adapter.ts). No foreign key: the session's row goes first.
     */
    sessionId: uuid("session_id"),
    /** Set once by `consume` (codes, refresh tokens); a second consume finds it set and fails. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kind, t.id] }),
    index("openid_models_grant")
      .on(t.tenantId, t.grantId)
      .where(sql`${t.grantId} is not null`),
    index("openid_models_uid")
      .on(t.tenantId, t.kind, t.uid)
      .where(sql`${t.uid} is not null`),
    index("openid_models_expires").on(t.expiresAt),
    index("openid_models_session")
      .on(t.tenantId, t.sessionId)
      .where(sql`${t.sessionId} is not null`),
  ],
);

export type OpenidModelRow = typeof openidModels.$inferSelect;

/** A tenant's OAuth 2.0 / OpenID Connect clients (relying parties). */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    /**
     * The client's registered metadata (RFC 7591 names), as oidc-provider reads it; `client_secret`, when
     * there is one, is its SHA-256 (hex), never the secret.
     */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull(),
    /** First-party clients skip the consent page. */
    firstParty: boolean("first_party").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.clientId] })],
);

export type OauthClientRow = typeof oauthClients.$inferSelect;

/** What a user consented to for a client: remembered across sessions, revocable from the profile. */
export const oauthConsents = pgTable(
  "oauth_consents",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    scopes: text("scopes").array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId, t.clientId] })],
);

export type OauthConsentRow = typeof oauthConsents.$inferSelect;

/**
 * Which clients got tokens from which Sesame session (written when an authorization code is issued):
 * once that session ends, by whatever path (logout, revocation, lock, deletion, expiry), each such client
 * with a `backchannel_logout_uri` is sent a logout token (lib/openid/backchannel.ts) and the row goes.
 * No foreign key to the session or user: the row must outlive them to be acted on.
 */
export const oauthSessionClients = pgTable(
  "oauth_session_clients",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The Sesame session (`sessions.id`), the `sid` of the client's ID and logout tokens. */
    sessionId: uuid("session_id").notNull(),
    clientId: text("client_id").notNull(),
    /** The user (`sub`). */
    accountId: text("account_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sessionId, t.clientId] })],
);

export type OauthSessionClientRow = typeof oauthSessionClients.$inferSelect;
