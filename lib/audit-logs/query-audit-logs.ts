import { ValidationFailed } from "@/lib/errors";
import { entriesOf, selectionOf, type AuditLogEntry, type AuditLogFilter } from "./audit-log-entries";
import { auditLogCount, auditLogPage } from "@/lib/audit";

export interface AuditLogListing {
  entries: AuditLogEntry[];
  /** How many events the filter selects, over all pages. */
  total: number;
  page: number;
  perPage: number;
}

export const AUDIT_LOG_PAGE = { defaultPerPage: 20, maxPerPage: 100, maxPage: 1_000_000 } as const;

/**
 * One page of the tenant's audit log, newest first (insertion order), with the filter's total: the
 * admin API's `GET /audit_logs`. `page` counts from 1.
 */
export async function queryAuditLogs(
  tenantId: string,
  filter: AuditLogFilter,
  paging: { page?: number; perPage?: number } = {},
): Promise<AuditLogListing> {
  const page = paging.page ?? 1;
  const perPage = paging.perPage ?? AUDIT_LOG_PAGE.defaultPerPage;
  if (!Number.isInteger(page) || page < 1 || page > AUDIT_LOG_PAGE.maxPage) {
    throw new ValidationFailed([`query.page: must be an integer from 1 to ${AUDIT_LOG_PAGE.maxPage}`]);
  }
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > AUDIT_LOG_PAGE.maxPerPage) {
    throw new ValidationFailed([`query.per_page: must be an integer from 1 to ${AUDIT_LOG_PAGE.maxPerPage}`]);
  }
  const selection = await selectionOf(tenantId, filter);
  const [rows, total] = await Promise.all([
    auditLogPage(tenantId, selection, { offset: (page - 1) * perPage, limit: perPage }),
    auditLogCount(tenantId, selection),
  ]);
  return { entries: await entriesOf(tenantId, rows), total, page, perPage };
}
