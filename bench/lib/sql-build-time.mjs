/**
 * A preload for the in-process statement benches: times drizzle's `sqlToQuery` (a query's SQL text and
 * parameters built from its parts) per statement text, and prints at exit the statements whose building
 * cost the most. Statements built once (lib/db/statement.ts) show up once.
 *
 *   DATABASE_URL=… node --import tsx --import ./bench/lib/sql-build-time.mjs bench/flow-statements.ts
 */
import process from "node:process";
import { PgDialect } from "drizzle-orm/pg-core";

const build = PgDialect.prototype.sqlToQuery;
/** @type {Map<string, { calls: number; us: number; params: number }>} */
const built = new Map();
PgDialect.prototype.sqlToQuery = function (...args) {
  const started = process.hrtime.bigint();
  const query = build.apply(this, args);
  const us = Number(process.hrtime.bigint() - started) / 1000;
  const text = query.sql.replace(/\s+/g, " ").trim().slice(0, 100);
  const entry = built.get(text) ?? { calls: 0, us: 0, params: query.params.length };
  entry.calls++;
  entry.us += us;
  built.set(text, entry);
  return query;
};

process.on("exit", () => {
  const all = [...built.entries()].sort((a, b) => b[1].us - a[1].us);
  const total = all.reduce((sum, [, entry]) => sum + entry.us, 0);
  const lines = [
    `drizzle sqlToQuery: ${(total / 1000).toFixed(0)} ms in all`,
    "ms\tcalls\tµs each\tparams\tstatement",
  ];
  for (const [text, entry] of all.slice(0, 30)) {
    const each = (entry.us / entry.calls).toFixed(0);
    lines.push(`${(entry.us / 1000).toFixed(1)}\t${entry.calls}\t${each}\t${entry.params}\t${text}`);
  }
  process.stderr.write(`${lines.join("\n")}\n`);
});
