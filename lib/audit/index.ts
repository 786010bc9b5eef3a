export { recordAuditEvent, type AuditEvent, type AuditContext } from "./record-audit-event";
export { listAuditEvents, type AuditPage } from "./list-audit-events";
export { auditFailures, failureDetails } from "./audit-failures";
