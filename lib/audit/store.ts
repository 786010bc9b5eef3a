import { and, count, desc, eq, gte, ilike, inArray, isNull, like, lt, or, sql, type SQL } from "drizzle-orm";
import { executor } from "@/lib/db";
import { auditLogs, type AuditLogRow } from "@/lib/db/schema";

/** Newest first; `beforeSeq` continues after the last row of the previous page. */
export async function selectAuditLogs(
  tenantId: string,
  options: { limit: number; beforeSeq?: number; type?: string },
): Promise<AuditLogRow[]> {
  const db = await executor();
  const conditions: SQL[] = [eq(auditLogs.tenantId, tenantId)];
  if (options.type) conditions.push(eq(auditLogs.type, options.type));
  if (options.beforeSeq !== undefined) conditions.push(lt(auditLogs.seq, options.beforeSeq));
  return db
    .select()
    .from(auditLogs)
    .where(and(...conditions))
    .orderBy(desc(auditLogs.seq))
    .limit(options.limit);
}

/**
 * A selection of a tenant's log, as the store sees it: every field narrows (AND); `types` and
 * `typePrefixes` together widen (OR); `actors` is the set of actor values allowed (empty: nothing
 * matches); `text` matches any of type, actor, IP, user agent, request id, details or `textActors`.
 */
export interface AuditLogSelection {
  from?: Date;
  until?: Date;
  types?: string[];
  typePrefixes?: string[];
  actors?: string[];
  /** The client IP; null: events recorded without one (CLI, system). */
  ip?: string | null;
  text?: string;
  textActors?: string[];
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditionsOf(tenantId: string, selection: AuditLogSelection): SQL[] {
  const conditions: SQL[] = [eq(auditLogs.tenantId, tenantId)];
  if (selection.from) conditions.push(gte(auditLogs.createdAt, selection.from));
  if (selection.until) conditions.push(lt(auditLogs.createdAt, selection.until));
  const typeMatches = [
    ...(selection.types?.length ? [inArray(auditLogs.type, selection.types)] : []),
    ...(selection.typePrefixes ?? []).map((prefix) => like(auditLogs.type, `${escapeLike(prefix)}%`)),
  ];
  if (typeMatches.length) conditions.push(or(...typeMatches)!);
  if (selection.actors) {
    conditions.push(selection.actors.length ? inArray(auditLogs.actor, selection.actors) : sql`false`);
  }
  if (selection.ip === null) conditions.push(isNull(auditLogs.ip));
  else if (selection.ip !== undefined) conditions.push(eq(auditLogs.ip, selection.ip));
  if (selection.text !== undefined) {
    const pattern = `%${escapeLike(selection.text)}%`;
    const matches = [
      ilike(auditLogs.type, pattern),
      ilike(auditLogs.actor, pattern),
      ilike(auditLogs.ip, pattern),
      ilike(auditLogs.userAgent, pattern),
      ilike(auditLogs.requestId, pattern),
      sql`${auditLogs.details}::text ilike ${pattern}`,
    ];
    if (selection.textActors?.length) matches.push(inArray(auditLogs.actor, selection.textActors));
    conditions.push(or(...matches)!);
  }
  return conditions;
}

/** One page of the selection, newest first, by offset (the admin API's `page`/`per_page`). */
export async function selectAuditLogPage(
  tenantId: string,
  selection: AuditLogSelection,
  page: { offset: number; limit: number },
): Promise<AuditLogRow[]> {
  const db = await executor();
  return db
    .select()
    .from(auditLogs)
    .where(and(...conditionsOf(tenantId, selection)))
    .orderBy(desc(auditLogs.seq))
    .offset(page.offset)
    .limit(page.limit);
}

export async function countAuditLogs(tenantId: string, selection: AuditLogSelection): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ count: count() })
    .from(auditLogs)
    .where(and(...conditionsOf(tenantId, selection)));
  return Number(row?.count ?? 0);
}

/** The next batch of the selection older than `beforeSeq` (all when undefined), newest first: keyset. */
export async function selectAuditLogBatch(
  tenantId: string,
  selection: AuditLogSelection,
  batch: { beforeSeq?: number; limit: number },
): Promise<AuditLogRow[]> {
  const db = await executor();
  const conditions = conditionsOf(tenantId, selection);
  if (batch.beforeSeq !== undefined) conditions.push(lt(auditLogs.seq, batch.beforeSeq));
  return db
    .select()
    .from(auditLogs)
    .where(and(...conditions))
    .orderBy(desc(auditLogs.seq))
    .limit(batch.limit);
}

/**
 * Deletes at most `limit` of the tenant's events created before `before`; returns how many. Rows another
 * sweeper holds are skipped (`skip locked`), so instances sweeping at once neither wait nor conflict.
 */
export async function deleteAuditLogsBefore(tenantId: string, before: Date, limit: number): Promise<number> {
  const db = await executor();
  const expired = db
    .select({ id: auditLogs.id })
    .from(auditLogs)
    .where(and(eq(auditLogs.tenantId, tenantId), lt(auditLogs.createdAt, before)))
    .limit(limit)
    .for("update", { skipLocked: true });
  const deleted = await db
    .delete(auditLogs)
    .where(inArray(auditLogs.id, expired))
    .returning({ seq: auditLogs.seq });
  return deleted.length;
}

// For tests only (lib/audit/test-support.ts): bulk rows and back-dating.

/**
 * Inserts `count` events of `type` for the tenant in one `INSERT … SELECT generate_series` (no round trip
 * per row), `ageDays` old, each with a distinct `details.n` and request id.
 */
export async function insertBulkAuditLogs(
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
export async function updateAuditLogsCreatedAt(tenantId: string, type: string, days: number): Promise<void> {
  const db = await executor();
  await db.execute(sql`
    update ${auditLogs} set created_at = created_at - make_interval(days => ${days})
    where tenant_id = ${tenantId}::uuid and type = ${type}
  `);
}
