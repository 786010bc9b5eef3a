import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants";

export const auditLogs = pgTable(
  "audit_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Insertion order: timestamps can tie, the sequence cannot. Pages are cut on it. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** Dotted event name, for example `passkey.login.succeeded`. */
    type: text("type").notNull(),
    /** Who acted: a user id, `api_key:<id>`, `cli` or `system`. */
    actor: text("actor"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    requestId: text("request_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_logs_tenant_seq").on(t.tenantId, t.seq.desc()),
    // The admin API's filters (lib/audit/store.ts): time ranges and the retention sweep, types (exact and
    // `prefix.*`: text_pattern_ops serves `like 'prefix.%'` in any collation), actors.
    index("audit_logs_tenant_created").on(t.tenantId, t.createdAt),
    index("audit_logs_tenant_type").on(t.tenantId, t.type.op("text_pattern_ops")),
    index("audit_logs_tenant_actor").on(t.tenantId, t.actor),
  ],
);

export type AuditLogRow = typeof auditLogs.$inferSelect;
