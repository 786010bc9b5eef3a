export {
  recordAuditEvent,
  writeWithAuditEvent,
  type AuditEvent,
  type AuditContext,
} from "./record-audit-event";
export { listAuditEvents, type AuditPage } from "./list-audit-events";
export { auditFailures, failureDetails } from "./audit-failures";
export { NO_SOURCE_IP, type AuditLogEntry, type AuditLogFilter } from "./audit-log-entries";
export { AUDIT_LOG_PAGE, queryAuditLogs, type AuditLogListing } from "./query-audit-logs";
export { exportAuditLogs } from "./export-audit-logs";
export { AUDIT_LOG_CSV_COLUMNS } from "./csv";
export { sweepExpiredAuditLogs, type SweepOptions } from "./sweep-audit-logs";
