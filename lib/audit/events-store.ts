// The audit log's writes (lib/audit owns `audit_logs`): one statement per event, with the console's daily
// counters (lib/analytics' rollup statement) in the same statement. The rollup's classifier and statement
// only (not that module's index, whose queries import modules that import this one).
import { sql, type SQLWrapper } from "drizzle-orm";
import { executor, rowsOf, type Executor } from "@/lib/db";
import { fixedSql } from "@/lib/db/statement";
import type { AuditEvent } from "./event";
import {
  AUDIT_ROW,
  auditCtes,
  auditCtesWithPlaceholders,
  auditPlaceholders,
  type AuditShape,
} from "./fragments";

export type { AuditContext, AuditEvent } from "./event";

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

/**
 * {@link insertWithAuditEvent} for a statement built once (lib/db/statement.ts): `build` makes the
 * data-modifying statement with `sql.placeholder` for its values (never `audit_…`, which the audit row's
 * placeholders use); each call runs it with `values` and writes `event` with it. One text per shape of
 * event (lib/audit/fragments.ts `auditPlaceholders`), each built on first use.
 */
export function fixedInsertWithAuditEvent<V extends Record<string, unknown>>(
  build: (db: Executor) => SQLWrapper,
) {
  const texts = new Map<AuditShape, ReturnType<typeof fixedSql>>();
  const written = sql.raw("written");
  return async <T>(tenantId: string, event: AuditEvent, values: V): Promise<T[]> => {
    const db = await executor();
    const { shape, values: audit } = auditPlaceholders(tenantId, event);
    let run = texts.get(shape);
    if (!run) {
      run = fixedSql(
        (first) => sql`
          with ${written} as (${build(first).getSQL()}),
          ${auditCtesWithPlaceholders(shape, sql`exists (select 1 from ${written})`)}
          select * from ${written}`,
      );
      texts.set(shape, run);
    }
    return run<T>(db, { ...values, ...audit });
  };
}
