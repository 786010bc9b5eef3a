import { sql, type SQL } from "drizzle-orm";
import { classifyEvent, counterCtes, randomShard } from "@/lib/analytics/record";
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

/** The audit row's values, each a value of the call or a placeholder of a statement built once. */
interface AuditFields<V> {
  tenantId: V;
  type: V;
  actor: V;
  ip: V;
  userAgent: V;
  requestId: V;
  /** The details as JSON text. */
  details: V;
}

function auditFieldsOf(tenantId: string, event: AuditEvent): AuditFields<string | null> {
  const details = event.impersonatedBy
    ? { ...event.details, impersonated_by: event.impersonatedBy }
    : (event.details ?? {});
  return {
    tenantId,
    type: event.type,
    actor: clip(event.actor),
    ip: clip(event.ip),
    userAgent: clip(event.userAgent),
    requestId: clip(event.requestId),
    details: JSON.stringify(details),
  };
}

function auditRowCte(fields: AuditFields<unknown>, gate?: SQL, moreDetails?: SQL): SQL {
  return sql`${AUDIT_ROW} as (
    insert into ${auditLogs} (tenant_id, type, actor, ip, user_agent, request_id, details)
    select ${fields.tenantId}::uuid, ${fields.type}::text, ${fields.actor}::text, ${fields.ip}::text,
      ${fields.userAgent}::text, ${fields.requestId}::text, ${fields.details}::jsonb${moreDetails ? sql` || ${moreDetails}` : sql``}
    ${gate ? sql`where ${gate}` : sql``}
    returning id, seq, tenant_id, type, actor, ip, user_agent, request_id, details, created_at)`;
}

/**
 * The event's audit row, and the console's daily counters when the event counts (lib/analytics), as
 * common table expressions: `audit_row` is the inserted row. With `gate`, an SQL condition, nothing is
 * written when it is false; `moreDetails`, a jsonb expression of the statement (what it wrote), is merged
 * into `details`. One statement, so the row and its counters are written together or not at all.
 */
export function auditCtes(tenantId: string, event: AuditEvent, gate?: SQL, moreDetails?: SQL): SQL {
  const row = auditRowCte(auditFieldsOf(tenantId, event), gate, moreDetails);
  const counted = classifyEvent(event);
  return counted ? sql`${row}, ${counterCtes(tenantId, counted.metric, counted.activeUser, AUDIT_ROW)}` : row;
}

/**
 * {@link auditCtes} for a statement built once (lib/db/statement.ts), `gate` and `moreDetails` as there:
 * every value is a placeholder named
 * `audit_…`, filled by {@link auditPlaceholders}. Events differ in whether they count, so a statement
 * needs one text per `shape` that `auditPlaceholders` gives.
 */
export function auditCtesWithPlaceholders(shape: AuditShape, gate?: SQL, moreDetails?: SQL): SQL {
  const p = (name: string) => sql.placeholder(`audit_${name}`);
  const row = auditRowCte(
    {
      tenantId: p("tenant_id"),
      type: p("type"),
      actor: p("actor"),
      ip: p("ip"),
      userAgent: p("user_agent"),
      requestId: p("request_id"),
      details: p("details"),
    },
    gate,
    moreDetails,
  );
  if (shape === "uncounted") return row;
  const activeUser = shape === "counted-active" ? p("active_user") : undefined;
  return sql`${row}, ${counterCtes(p("tenant_id"), p("metric"), activeUser, AUDIT_ROW, p("shard"))}`;
}

/** Which text of a statement built once an event needs: whether it counts, and whether it marks a user active. */
export type AuditShape = "uncounted" | "counted" | "counted-active";

/** The values of {@link auditCtesWithPlaceholders}' placeholders for `event`, and the shape it needs. */
export function auditPlaceholders(
  tenantId: string,
  event: AuditEvent,
): { shape: AuditShape; values: Record<string, unknown> } {
  const fields = auditFieldsOf(tenantId, event);
  const values: Record<string, unknown> = {
    audit_tenant_id: fields.tenantId,
    audit_type: fields.type,
    audit_actor: fields.actor,
    audit_ip: fields.ip,
    audit_user_agent: fields.userAgent,
    audit_request_id: fields.requestId,
    audit_details: fields.details,
  };
  const counted = classifyEvent(event);
  if (!counted) return { shape: "uncounted", values };
  values.audit_metric = counted.metric;
  values.audit_shard = randomShard();
  if (counted.activeUser === undefined) return { shape: "counted", values };
  values.audit_active_user = counted.activeUser;
  return { shape: "counted-active", values };
}
