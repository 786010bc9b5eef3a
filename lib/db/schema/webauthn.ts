import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { WebauthnPolicy } from "@/lib/settings/schemas";
import { tenants } from "./tenants";
import { users } from "./users";

export const CEREMONY_KINDS = [
  "registration",
  "login",
  "mfa-registration",
  "mfa-login",
  "transaction",
  // The public API's own WebAuthn ceremonies (a platform session's user, discoverable login).
  "public-registration",
  "public-login",
  "public-mfa-registration",
  // A passkey created during sign-up (flow API): the user does not exist yet, the row has none.
  "sign-up",
] as const;
export type CeremonyKind = (typeof CEREMONY_KINDS)[number];

export const webauthnCredentials = pgTable(
  "webauthn_credentials",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The credential id, base64url without padding. Unique within a tenant (WebAuthn §7.1 step 26). */
    id: text("id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    signCount: bigint("sign_count", { mode: "number" }).notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    aaguid: text("aaguid").notNull(),
    attestationType: text("attestation_type").notNull(),
    backupEligible: boolean("backup_eligible").notNull(),
    backupState: boolean("backup_state").notNull(),
    userVerified: boolean("user_verified").notNull(),
    /** A second-factor key (registered through /mfa/registration): never usable for passkey login. */
    isMfa: boolean("is_mfa").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("webauthn_credentials_user").on(t.userId, t.createdAt),
    check("webauthn_credentials_id_length", sql`length(${t.id}) <= 1364`),
  ],
);

export type WebauthnCredentialRow = typeof webauthnCredentials.$inferSelect;

/** A transaction a user is asked to sign (Passkey API `transaction/initialize`); kept as history. */
export const webauthnTransactions = pgTable(
  "webauthn_transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The relying party's `transaction_id`, used once per user. */
    identifier: text("identifier").notNull(),
    /** The canonical JSON of `transaction_data`, exactly the bytes hashed into the challenge. */
    data: text("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    /** Set when a signed assertion over it was accepted. */
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("webauthn_transactions_identifier").on(t.tenantId, t.userId, t.identifier)],
);

export type WebauthnTransactionRow = typeof webauthnTransactions.$inferSelect;

/**
 * An issued WebAuthn challenge: single use, deleted by the finalize that consumes it (whatever its
 * outcome), bound to a tenant and a ceremony kind, and to a user where the ceremony names one.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CeremonyKind>().notNull(),
    /** base64url, exactly as it comes back in clientDataJSON. */
    challenge: text("challenge").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The policy the options were made with; finalize checks against it. */
    policy: text("policy").$type<"passkey" | "mfa">().notNull(),
    userVerification: text("user_verification").$type<WebauthnPolicy["userVerification"]>().notNull(),
    /** Credential ids offered in `allowCredentials`; the assertion must use one (WebAuthn §7.2 step 5). */
    allowCredentials: text("allow_credentials").array(),
    transactionId: uuid("transaction_id").references(() => webauthnTransactions.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webauthn_challenges_challenge").on(t.tenantId, t.challenge),
    index("webauthn_challenges_expires").on(t.expiresAt),
  ],
);

export type WebauthnChallengeRow = typeof webauthnChallenges.$inferSelect;
