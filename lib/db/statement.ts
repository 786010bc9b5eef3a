import type { SQL } from "drizzle-orm";
import { rowsOf } from "./client";
import type { Executor } from "./index";

/*
 * Statements whose SQL text drizzle builds once per process instead of on every call (docs/performance.md,
 * issue 27). drizzle turns a query builder into its SQL text and parameters on each execution: in a flow
 * login on Postgres that was about a tenth of the process's CPU, and 135 µs for the tenant's read alone.
 * A statement built with `sql.placeholder(name)` for each value keeps the same text for every call; only the
 * values change, filled in by drizzle's own `fillPlaceholders` (through the column's encoder where drizzle
 * binds a value to a column: `set`, `values`). The built text runs on whatever executor the call is given,
 * so it joins the caller's transaction as any other statement does.
 */

/** What drizzle's `.prepare()` returns, as far as this module reads it (drizzle's PgPreparedQuery). */
interface DrizzlePrepared {
  query: { sql: string; params: unknown[] };
  fields?: unknown;
  customResultMapper?: unknown;
  joinsNotNullableMap?: unknown;
  _isResponseInArrayMode: boolean;
}

interface DrizzleSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: unknown,
  ): DrizzlePrepared & { execute(values: Record<string, unknown>): Promise<unknown> };
}

/** A query builder of any kind (select, insert, update, delete, `db.execute` excepted): it can `.prepare()`. */
interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * `build` is called once, with the first executor, and must use `sql.placeholder(name)` wherever a value
 * varies between calls (never a value of the call itself: it would be kept for every later call). The
 * returned function runs the statement on `db` with `values` for the placeholders and answers what the
 * builder's `execute` answers.
 */
export function fixedStatement<V extends Record<string, unknown>, R>(
  build: (db: Executor) => Preparable<R>,
): (db: Executor, values: V) => Promise<R> {
  let built: DrizzlePrepared | undefined;
  return (db, values) => {
    built ??= build(db).prepare("fixed") as unknown as DrizzlePrepared;
    const session = (db as unknown as { session: DrizzleSession }).session;
    const query = session.prepareQuery(
      built.query,
      built.fields,
      undefined,
      built._isResponseInArrayMode,
      built.customResultMapper,
    );
    query.joinsNotNullableMap = built.joinsNotNullableMap;
    return query.execute(values) as Promise<R>;
  };
}

/**
 * {@link fixedStatement} for raw SQL (what `db.execute` runs): `build` is called once, with the first
 * executor, and its text kept; each call runs it on `db` with `values` for the placeholders and answers
 * the rows.
 */
export function fixedSql(
  build: (db: Executor) => SQL,
): <T>(db: Executor, values: Record<string, unknown>) => Promise<T[]> {
  let built: { sql: string; params: unknown[] } | undefined;
  return async <T>(db: Executor, values: Record<string, unknown>) => {
    const { dialect, session } = db as unknown as {
      dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
      session: DrizzleSession;
    };
    built ??= dialect.sqlToQuery(build(db));
    const query = session.prepareQuery(built, undefined, undefined, false);
    return rowsOf<T>(await query.execute(values));
  };
}
