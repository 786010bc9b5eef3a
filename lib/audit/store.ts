import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { executor } from "@/lib/db";
import { auditLogs, type AuditLogRow } from "@/lib/db/schema";

export async function insertAuditLog(values: typeof auditLogs.$inferInsert): Promise<AuditLogRow> {
  const db = await executor();
  const [row] = await db.insert(auditLogs).values(values).returning();
  return row as AuditLogRow;
}

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
