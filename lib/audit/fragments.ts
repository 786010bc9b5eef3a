import { sql, type SQL } from "drizzle-orm";
import { classifyEvent, counterCtes } from "@/lib/analytics/record";
import { auditLogs } from "@/lib/db/schema";
import type { AuditEvent } from "./event";

/*
 * The audit log's row as SQL for a statement (never run here): lib/audit's own writes use it, and another
 * owner's hot-path statement may append its event's record to its own change in one statement.
 */

/** Bounds on what one entry may carry, so a hostile client cannot bloat the log. */
const MAX_TEXT = 512;
const clip = (value: string | null | undefined) => (value == null ? null : value.slice(0, MAX_TEXT));

export const AUDIT_ROW = sql.raw("audit_row");

/**
 * The event's audit row, and the console's daily counters when the event counts (lib/analytics), as
 * common table expressions: `audit_row` is the inserted row. With `gate`, an SQL condition, nothing is
 * written when it is false; `moreDetails`, a jsonb expression of the statement (what it wrote), is merged
 * into `details`. One statement, so the row and its counters are written together or not at all.
 */
export function auditCtes(tenantId: string, event: AuditEvent, gate?: SQL, moreDetails?: SQL): SQL {
  const details = event.impersonatedBy
    ? { ...event.details, impersonated_by: event.impersonatedBy }
    : (event.details ?? {});
  const row = sql`${AUDIT_ROW} as (
    insert into ${auditLogs} (tenant_id, type, actor, ip, user_agent, request_id, details)
    select ${tenantId}::uuid, ${event.type}::text, ${clip(event.actor)}::text, ${clip(event.ip)}::text,
      ${clip(event.userAgent)}::text, ${clip(event.requestId)}::text, ${JSON.stringify(details)}::jsonb${moreDetails ? sql` || ${moreDetails}` : sql``}
    ${gate ? sql`where ${gate}` : sql``}
    returning id, seq, tenant_id, type, actor, ip, user_agent, request_id, details, created_at)`;
  const counted = classifyEvent(event);
  return counted ? sql`${row}, ${counterCtes(tenantId, counted.metric, counted.activeUser, AUDIT_ROW)}` : row;
}
