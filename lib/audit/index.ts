export { recordAuditEvent, type AuditEvent } from "./record-audit-event";
export { listAuditEvents, type AuditPage } from "./list-audit-events";
