import type { AuditLogRow } from "@/lib/db/schema";
import { countAuditLogs, selectAuditLogBatch, selectAuditLogPage, type AuditLogSelection } from "./store";

/*
 * Reading the audit log by a selection (lib/audit-logs turns the admin API's filters into one): a page
 * by offset, the count, and keyset batches for the CSV export.
 */

export type { AuditLogSelection };

/** One page of the selection, newest first, by offset (the admin API's `page`/`per_page`). */
export async function auditLogPage(
  tenantId: string,
  selection: AuditLogSelection,
  page: { offset: number; limit: number },
): Promise<AuditLogRow[]> {
  return selectAuditLogPage(tenantId, selection, page);
}

/** How many events the selection holds. */
export async function auditLogCount(tenantId: string, selection: AuditLogSelection): Promise<number> {
  return countAuditLogs(tenantId, selection);
}

/** The next batch of the selection older than `beforeSeq` (all when undefined), newest first: keyset. */
export async function auditLogBatch(
  tenantId: string,
  selection: AuditLogSelection,
  batch: { beforeSeq?: number; limit: number },
): Promise<AuditLogRow[]> {
  return selectAuditLogBatch(tenantId, selection, batch);
}
