import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { executor } from "@/lib/db";
import { auditLogs, type AuditLogRow } from "@/lib/db/schema";

export async function insertAuditLog(values: typeof auditLogs.$inferInsert): Promise<AuditLogRow> {
  const db = await executor();
  const [row] = await db.insert(auditLogs).values(values).returning();
  return row as AuditLogRow;
}

export interface AuditPosition {
  createdAt: string;
  id: string;
}

/** Newest first; `before` continues after the last row of the previous page. */
export async function selectAuditLogs(
  tenantId: string,
  options: { limit: number; before?: AuditPosition; type?: string },
): Promise<AuditLogRow[]> {
  const db = await executor();
  const conditions: SQL[] = [eq(auditLogs.tenantId, tenantId)];
  if (options.type) conditions.push(eq(auditLogs.type, options.type));
  if (options.before) {
    const at = new Date(options.before.createdAt);
    conditions.push(
      or(
        lt(auditLogs.createdAt, at),
        and(eq(auditLogs.createdAt, at), lt(auditLogs.id, options.before.id)),
      ) as SQL,
    );
  }
  return db
    .select()
    .from(auditLogs)
    .where(and(...conditions))
    .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
    .limit(options.limit);
}
