import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";

/** A user's email addresses (public API). An address belongs to at most one user of a tenant. */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Lower-cased. */
    address: text("address").notNull(),
    verified: boolean("verified").notNull().default(false),
    isPrimary: boolean("is_primary").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("emails_tenant_address").on(t.tenantId, t.address),
    uniqueIndex("emails_user_primary")
      .on(t.userId)
      .where(sql`${t.isPrimary}`),
    index("emails_user").on(t.userId, t.createdAt),
  ],
);
export type EmailRow = typeof emails.$inferSelect;

/**
 * A server-side session: the JWT names it (`session_id`), so deleting the row ends the session at
 * once (logout, revocation, the per-user limit, idle timeout).
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** How the user authenticated: `pwd`, `passkey`, `otp`, … (JWT `amr`). */
    amr: text("amr")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /**
     * Who started the session for the user (admin impersonation, `POST /admin/sessions`): the audit
     * actor, `api_key:<id>`; null for the user's own logins. The JWT carries it as `act.sub`.
     */
    impersonatedBy: text("impersonated_by"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("sessions_user").on(t.tenantId, t.userId, t.createdAt),
    index("sessions_expires").on(t.expiresAt),
  ],
);
export type SessionRow = typeof sessions.$inferSelect;

export const PASSCODE_PURPOSES = ["login", "email_verification"] as const;
export type PasscodePurpose = (typeof PASSCODE_PURPOSES)[number];

/** A 6-digit code sent by email: stored hashed, single use, limited attempts. */
export const passcodes = pgTable(
  "passcodes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    emailId: uuid("email_id").references(() => emails.id, { onDelete: "cascade" }),
    /** The address the code went to (lower-cased), also for codes before a user exists. */
    address: text("address").notNull(),
    purpose: text("purpose").$type<PasscodePurpose>().notNull(),
    codeHash: text("code_hash").notNull(),
    /**
     * Who asked for the code: a digest of the client (its IP subject, lib/passcodes `requesterOf`). A new
     * code replaces, and carries the failed attempts of, only the same requester's live codes, so a
     * stranger's wrong guesses and new codes never touch the code the address's owner asked for (null:
     * codes from before the column, which no new code matches).
     */
    requester: text("requester"),
    /** Failed attempts so far, carried over from the same requester's previous code for the address. */
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("passcodes_address").on(t.tenantId, t.address, t.createdAt)],
);
export type PasscodeRow = typeof passcodes.$inferSelect;

/** A user's password (argon2id), with the lockout counter. */
export const passwords = pgTable("passwords", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedAt: timestamp("locked_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
export type PasswordRow = typeof passwords.$inferSelect;

/** A one-time token exchanged for a session at `POST /token` (third-party and SAML login). */
export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 (hex) of the token. */
    tokenHash: text("token_hash").notNull(),
    /**
     * SHA-256 (hex) of the `code_verifier` the browser that started the sign-in holds (the flow's
     * `thirdparty_oauth`); an exchange that presents it proves it is that browser.
     */
    codeChallenge: text("code_challenge"),
    /**
     * SHA-256 (hex) of the binding cookie of the browser that started the sign-in (the third-party state's or
     * the SAML request's); an exchange that carries the cookie proves it is that browser. Every token has a
     * binding (the check below): a token from someone else's sign-in injected into a page is refused (login CSRF).
     */
    browserHash: text("browser_hash"),
    /** The `amr` the session gets (e.g. `ext:google`). */
    amr: text("amr")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash").on(t.tokenHash),
    check("one_time_tokens_bound", sql`${t.browserHash} IS NOT NULL OR ${t.codeChallenge} IS NOT NULL`),
  ],
);
export type OneTimeTokenRow = typeof oneTimeTokens.$inferSelect;

/** Rate-limit counters shared by all instances (Postgres); `key` includes the limiter's name. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    points: bigint("points", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.key] }), index("rate_limits_expires").on(t.expiresAt)],
);
