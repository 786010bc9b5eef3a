export {
  auditedStatement,
  recordAuditEvent,
  writeWithAuditEvent,
  type AuditEvent,
  type AuditContext,
} from "./record-audit-event";
export { listAuditEvents, type AuditPage } from "./list-audit-events";
export { auditFailures, failureDetails } from "./audit-failures";
export { auditLogBatch, auditLogCount, auditLogPage, type AuditLogSelection } from "./read-audit-logs";
export { sweepExpiredAuditLogs, type SweepOptions } from "./sweep-audit-logs";
