import type { SQLWrapper } from "drizzle-orm";
import type { Executor } from "@/lib/db";
import type { AuditLogRow } from "@/lib/db/schema";
import { countAuditEvent } from "@/lib/metrics";
import {
  fixedInsertWithAuditEvent,
  insertAuditEvent,
  insertWithAuditEvent,
  type AuditEvent,
} from "./events-store";

export type { AuditContext, AuditEvent } from "./events-store";

/**
 * Appends one event to the tenant's audit log. Call it for every success and failure of an auth event.
 * A sign-up or login also bumps the console's daily counters (lib/analytics), in the same statement.
 */
export async function recordAuditEvent(tenantId: string, event: AuditEvent): Promise<AuditLogRow> {
  countAuditEvent(event.type); // sesame_ceremonies_total (lib/metrics)
  const raw = await insertAuditEvent(tenantId, event);
  return {
    id: raw.id,
    seq: Number(raw.seq),
    tenantId: raw.tenant_id,
    type: raw.type,
    actor: raw.actor,
    ip: raw.ip,
    userAgent: raw.user_agent,
    requestId: raw.request_id,
    details: typeof raw.details === "string" ? JSON.parse(raw.details) : raw.details,
    createdAt: new Date(raw.created_at),
  };
}

/**
 * Runs `statement`, a data-modifying statement with `RETURNING`, and appends `event` to the audit log
 * when it returned a row, in one statement (so one round trip, and atomic without a transaction). The
 * hot paths use it to write their change and its audit record together. Returns the statement's rows.
 */
export async function writeWithAuditEvent<T>(
  tenantId: string,
  event: AuditEvent,
  statement: SQLWrapper,
): Promise<T[]> {
  const rows = await insertWithAuditEvent<T>(tenantId, event, statement);
  if (rows.length > 0) countAuditEvent(event.type);
  return rows;
}

/**
 * {@link writeWithAuditEvent} for a hot statement whose SQL is built once (lib/db/statement.ts): `build`
 * makes it with `sql.placeholder(name)` for each value; the returned function runs it with the call's
 * `values` and its audit record, in one statement.
 */
export function auditedStatement<V extends Record<string, unknown>>(build: (db: Executor) => SQLWrapper) {
  const insert = fixedInsertWithAuditEvent<V>(build);
  return async <T>(tenantId: string, event: AuditEvent, values: V): Promise<T[]> => {
    const rows = await insert<T>(tenantId, event, values);
    if (rows.length > 0) countAuditEvent(event.type);
    return rows;
  };
}
