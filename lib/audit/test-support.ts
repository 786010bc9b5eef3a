/*
 * For tests only (never imported by the application): bulk rows and back-dating, by SQL in the audit
 * log's own store.
 */
export { insertBulkAuditLogs as seedAuditLogs, updateAuditLogsCreatedAt as backdateAuditLogs } from "./store";
