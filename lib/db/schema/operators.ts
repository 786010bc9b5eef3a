import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenants } from "./tenants";
import { type OperatorRole } from "../enums";
export { OPERATOR_ROLES, type OperatorRole } from "../enums";

/** Console operators (lib/operators): Sesame's own accounts, separate from every tenant's users. */

export const operators = pgTable(
  "operators",
  {
    /** Also the external user id of the operator's passkeys in the console's system tenant. */
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text("email").notNull(),
    role: text("role").$type<OperatorRole>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("operators_email").on(t.email),
    check("operators_role", sql`${t.role} in ('owner', 'admin', 'viewer')`),
  ],
);

/** The tenants an admin or viewer may see (owners see all). */
export const operatorTenants = pgTable(
  "operator_tenants",
  {
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.operatorId, t.tenantId] }),
    index("operator_tenants_tenant").on(t.tenantId),
  ],
);

/**
 * One-time links: the first owner's setup link (no operator yet) and enrolment links for an operator
 * (invite, recover). Only the SHA-256 of the token is kept.
 */
export const operatorEnrolments = pgTable(
  "operator_enrolments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null for the setup link of the first owner. */
    operatorId: uuid("operator_id").references(() => operators.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("operator_enrolments_token").on(t.tokenHash)],
);

/** Console sessions: the next-auth JWT names one; idle and absolute lifetimes and revocation live here. */
export const operatorSessions = pgTable(
  "operator_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorId: uuid("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("operator_sessions_operator").on(t.operatorId)],
);

export type OperatorRow = typeof operators.$inferSelect;
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

/**
 * The console's analytics (lib/analytics): daily counters kept up to date as audit events are written.
 * `shard` spreads concurrent increments of one counter over several rows so logins do not queue on a
 * single row lock; readers sum the shards.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    /** `signup`, `login.passkey`, `login.passcode`, `login.password`, `login.third_party`, `login.failed`, … */
    metric: text("metric").notNull(),
    shard: smallint("shard").notNull().default(0),
    value: bigint("value", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.metric, t.shard] })],
);

/** Who was active (signed in) on a day, with whether that sign-in used a passkey: passkey adoption. */
export const analyticsActiveUsers = pgTable(
  "analytics_active_users",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.userId] })],
);
