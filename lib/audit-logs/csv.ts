import type { AuditLogEntry } from "./audit-log-entries";

/** The CSV columns: the admin API's item fields, details as JSON. */
export const AUDIT_LOG_CSV_COLUMNS = [
  "id",
  "created_at",
  "type",
  "error",
  "actor_user_id",
  "actor_email",
  "meta_source_ip",
  "meta_user_agent",
  "meta_http_request_id",
  "details",
] as const;

/** Cells a spreadsheet would read as a formula (OWASP "CSV injection"): prefixed with `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field: formula-neutralised, quoted when it holds a quote, comma, semicolon, tab or line
 * break. Semicolons and tabs are quoted too: spreadsheets in locales whose list separator is `;` split
 * on it, and a cell starting after one could be a formula (`Mozilla;=cmd|…`).
 */
export function csvField(value: string | null): string {
  if (value === null || value === "") return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated (RFC 4180). */
function csvRecord(fields: (string | null)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

export const auditLogCsvHeader = (): string => csvRecord([...AUDIT_LOG_CSV_COLUMNS]);

export function auditLogCsvRecord(entry: AuditLogEntry): string {
  return csvRecord([
    entry.id,
    entry.createdAt.toISOString(),
    entry.type,
    entry.error,
    entry.actorUserId,
    entry.actorEmail,
    entry.ip,
    entry.userAgent,
    entry.requestId,
    JSON.stringify(entry.details),
  ]);
}
