/**
 * Counts every statement drizzle sends in this process, on either driver, for the in-process statement
 * benches (bench/flow-statements.ts, bench/oidc-statements.ts, bench/uaf-statements.ts): each goes through
 * a prepared query's `execute` or `all` (raw `db.execute` too); a transaction is reported as `BEGIN` …
 * `COMMIT` around its statements. `sent` hears each statement as it goes out; `answered`, if given, hears
 * it again with the milliseconds until its answer (or error).
 */
export async function countStatements(on: {
  sent: (text: string) => void;
  answered?: (text: string, ms: number) => void;
}): Promise<void> {
  const sessions = [
    await import("drizzle-orm/pglite/session"),
    await import("drizzle-orm/postgres-js/session"),
  ];
  for (const module of sessions) {
    const query = ("PglitePreparedQuery" in module
      ? module.PglitePreparedQuery
      : module.PostgresJsPreparedQuery
    ).prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const method of ["execute", "all"] as const) {
      const run = query[method]!;
      query[method] = function (this: { queryString: string }, ...args: unknown[]) {
        const text = this.queryString;
        on.sent(text);
        const started = performance.now();
        const result = run.apply(this, args);
        const answered = on.answered;
        if (answered) {
          const done = () => answered(text, performance.now() - started);
          void Promise.resolve(result).then(done, done);
        }
        return result;
      };
    }
    const session = ("PgliteSession" in module ? module.PgliteSession : module.PostgresJsSession)
      .prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const transaction = session.transaction!;
    session.transaction = async function (this: unknown, ...args: unknown[]) {
      on.sent("BEGIN");
      try {
        return await transaction.apply(this, args);
      } finally {
        on.sent("COMMIT");
      }
    };
  }
}
