import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { users } from "./users";
import { type FlowName } from "../enums";
export { FLOW_NAMES, type FlowName } from "../enums";

/**
 * A running flow (flow API): its state, the data carried between steps (`stash`), the payload shown
 * in the current state and the CSRF token of the next step (hashed; rotated at every step). Any
 * instance continues any flow: nothing of it lives in process memory.
 */
export const flows = pgTable(
  "flows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").$type<FlowName>().notNull(),
    state: text("state").notNull(),
    /** States visited before the current one, for `back` (last = previous). */
    history: text("history")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    stash: jsonb("stash").$type<Record<string, unknown>>().notNull().default({}),
    payload: jsonb("payload").$type<Record<string, unknown> | null>(),
    /** SHA-256 (hex) of the CSRF token the next action must carry. */
    csrfHash: text("csrf_hash").notNull(),
    /** Steps taken; +1 with every answered action. */
    version: integer("version").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("flows_expires").on(t.expiresAt)],
);
export type FlowRow = typeof flows.$inferSelect;

/** A user's TOTP authenticator-app secret (MFA), sealed with the master secret. */
export const otpSecrets = pgTable("otp_secrets", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  tenantId: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  /** The last accepted time step: a code is accepted once (`otp_code_already_used`). */
  lastUsedStep: integer("last_used_step"),
  /** Wrong codes since the last right one (every `MAX_OTP_FAILURES` ends the login and mails the user). */
  failedAttempts: integer("failed_attempts").notNull().default(0),
  /** When the last run of wrong codes locked the app's codes (for a while that grows with each run). */
  lockedAt: timestamp("locked_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
export type OtpSecretRow = typeof otpSecrets.$inferSelect;
