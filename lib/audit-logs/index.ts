// The audit log as the admin API and the console read it: Hanko's filters (users by address through
// lib/emails), pages with a total, and the streamed CSV export. lib/audit owns the table.
export { NO_SOURCE_IP, type AuditLogEntry, type AuditLogFilter } from "./audit-log-entries";
export { AUDIT_LOG_PAGE, queryAuditLogs, type AuditLogListing } from "./query-audit-logs";
export { exportAuditLogs } from "./export-audit-logs";
export { AUDIT_LOG_CSV_COLUMNS } from "./csv";
