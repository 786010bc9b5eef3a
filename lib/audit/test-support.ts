import { sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { auditLogs } from "@/lib/db/schema";

/*
 * For tests only (never imported by the application): bulk rows and back-dating, by SQL in the audit
 * log's own module.
 */

/**
 * Inserts `count` events of `type` for the tenant in one `INSERT … SELECT generate_series` (no round trip
 * per row), `ageDays` old, each with a distinct `details.n` and request id.
 */
export async function seedAuditLogs(
  tenantId: string,
  count: number,
  options: { type?: string; ageDays?: number } = {},
): Promise<void> {
  const type = options.type ?? "test.bulk";
  const ageDays = options.ageDays ?? 0;
  const db = await executor();
  await db.execute(sql`
    insert into ${auditLogs} (tenant_id, type, actor, ip, user_agent, request_id, details, created_at)
    select ${tenantId}::uuid, ${type}, 'system', '192.0.2.' || (n % 250), 'seed/1.0 (bulk, "quoted")',
           'req-' || n, jsonb_build_object('n', n, 'note', 'row, with comma'),
           now() - make_interval(days => ${ageDays})
    from generate_series(1, ${count}) as n
  `);
}

/** Moves the tenant's events of `type` `days` into the past. */
export async function backdateAuditLogs(tenantId: string, type: string, days: number): Promise<void> {
  const db = await executor();
  await db.execute(sql`
    update ${auditLogs} set created_at = created_at - make_interval(days => ${days})
    where tenant_id = ${tenantId}::uuid and type = ${type}
  `);
}
