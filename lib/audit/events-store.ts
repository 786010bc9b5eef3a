// The audit log's writes (lib/audit owns `audit_logs`): one statement per event, with the console's daily
// counters (lib/analytics' rollup statement) in the same statement. The rollup's classifier and statement
// only (not that module's index, whose queries import modules that import this one).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { classifyEvent, counterCtes } from "@/lib/analytics/record";
import { executor, rowsOf } from "@/lib/db";
import { auditLogs } from "@/lib/db/schema";

export interface AuditEvent {
  /** Dotted event name, `<area>.<subject>.<outcome>`: `passkey.login.succeeded`, `api_key.revoked`. */
  type: string;
  /** Who acted: a user id, `api_key:<id>`, `cli` or `system`. */
  actor?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
  /** Set when the request used an impersonation session: its `impersonated_by`, added to `details`. */
  impersonatedBy?: string | null;
}

/** Who and where an event comes from; route handlers build it from the request. */
export type AuditContext = Pick<AuditEvent, "actor" | "ip" | "userAgent" | "requestId" | "impersonatedBy">;

/** Bounds on what one entry may carry, so a hostile client cannot bloat the log. */
const MAX_TEXT = 512;
const clip = (value: string | null | undefined) => (value == null ? null : value.slice(0, MAX_TEXT));

const AUDIT_ROW = sql.raw("audit_row");

/**
 * The event's audit row, and the console's daily counters when the event counts (lib/analytics), as
 * common table expressions: `audit_row` is the inserted row. With `gate`, an SQL condition, nothing is
 * written when it is false. One statement, so the row and its counters are written together or not at all.
 */
function auditCtes(tenantId: string, event: AuditEvent, gate?: SQL): SQL {
  const details = event.impersonatedBy
    ? { ...event.details, impersonated_by: event.impersonatedBy }
    : (event.details ?? {});
  const row = sql`${AUDIT_ROW} as (
    insert into ${auditLogs} (tenant_id, type, actor, ip, user_agent, request_id, details)
    select ${tenantId}::uuid, ${event.type}::text, ${clip(event.actor)}::text, ${clip(event.ip)}::text,
      ${clip(event.userAgent)}::text, ${clip(event.requestId)}::text, ${JSON.stringify(details)}::jsonb
    ${gate ? sql`where ${gate}` : sql``}
    returning id, seq, tenant_id, type, actor, ip, user_agent, request_id, details, created_at)`;
  const counted = classifyEvent(event);
  return counted ? sql`${row}, ${counterCtes(tenantId, counted.metric, counted.activeUser, AUDIT_ROW)}` : row;
}

export interface RawAuditRow {
  id: string;
  seq: number | string;
  tenant_id: string;
  type: string;
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: Record<string, unknown> | string;
  created_at: Date | string;
}

/** Inserts the event's row (and its counters); the row as written. */
export async function insertAuditEvent(tenantId: string, event: AuditEvent): Promise<RawAuditRow> {
  const db = await executor();
  const [row] = rowsOf<RawAuditRow>(
    await db.execute(sql`with ${auditCtes(tenantId, event)} select * from ${AUDIT_ROW}`),
  );
  return row!;
}

/**
 * Runs `statement` (data-modifying, with `RETURNING`) and inserts the event when it returned a row, in
 * one statement. Returns the statement's rows.
 */
export async function insertWithAuditEvent<T>(
  tenantId: string,
  event: AuditEvent,
  statement: SQLWrapper,
): Promise<T[]> {
  const db = await executor();
  const written = sql.raw("written");
  return rowsOf<T>(
    await db.execute(sql`
      with ${written} as (${statement.getSQL()}),
      ${auditCtes(tenantId, event, sql`exists (select 1 from ${written})`)}
      select * from ${written}`),
  );
}
