/**
 * The plans Postgres actually ran for the statements of a few logins: `auto_explain` (a module shipped
 * with Postgres) logs the plan of every statement of the server's connections, with the real
 * parameters, and whether it was a custom or a generic plan of a prepared statement. Plain EXPLAIN of
 * captured statement texts could not show what a prepared statement runs with its parameters.
 */
import fs from "node:fs";
import type { Sql } from "./seed";

/** Turns plan logging on for new connections to `database` (the server must reconnect: restart it). */
export async function enablePlanLogging(sql: Sql, database: string): Promise<void> {
  const settings: [string, string][] = [
    ["session_preload_libraries", "auto_explain"],
    ["auto_explain.log_min_duration", "0"],
    ["auto_explain.log_analyze", "on"],
    ["auto_explain.log_buffers", "on"],
    ["auto_explain.log_timing", "off"],
    // The foreign-key checks of INSERTs run as nested statements: their plans show up too.
    ["auto_explain.log_nested_statements", "on"],
  ];
  for (const [name, value] of settings) {
    await sql.unsafe(`alter database ${database} set ${name} = '${value}'`);
  }
}

export async function disablePlanLogging(sql: Sql, database: string): Promise<void> {
  await sql.unsafe(`alter database ${database} reset all`);
}

/** Size of the cluster's log now: read from here after the logins. */
export const logOffset = (logFile: string) => fs.statSync(logFile).size;

export interface StatementPlans {
  /** The statement as the driver sent it (first line). */
  statement: string;
  executions: number;
  /** Every scan node seen over the executions, as "Index Scan using <index> on <table>". */
  scans: string[];
  seqScans: string[];
  /** One full plan as logged (the last execution's). */
  samplePlan: string;
}

const ENTRY_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;
const SCAN =
  /((?:Parallel )?Seq Scan|Index Scan(?: Backward)?|Index Only Scan(?: Backward)?|Bitmap Index Scan)(?: using (\S+))? on (\S+)/g;

/** The auto_explain entries written to `logFile` after `offset`, grouped by statement text. */
export function readPlans(logFile: string, offset: number): StatementPlans[] {
  const text = fs.readFileSync(logFile, "utf8").slice(offset);
  // An entry is its first line plus the continuation lines Postgres indents with a tab.
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (ENTRY_START.test(line)) entries.push(line);
    else if (entries.length > 0) entries[entries.length - 1] += `\n${line}`;
  }
  const byStatement = new Map<string, StatementPlans>();
  for (const entry of entries) {
    if (!/duration: [\d.]+ ms\s+plan:/.test(entry)) continue;
    const lines = entry.split("\n").map((l) => l.replace(/^\t/, ""));
    const queryLine = lines.find((l) => l.startsWith("Query Text:"));
    if (!queryLine) continue;
    const statement = queryLine.slice("Query Text:".length).trim();
    const plan = lines.slice(lines.indexOf(queryLine) + 1).join("\n");
    const found = byStatement.get(statement) ?? {
      statement,
      executions: 0,
      scans: [],
      seqScans: [],
      samplePlan: "",
    };
    found.executions++;
    found.samplePlan = plan;
    for (const [, node, index, table] of plan.matchAll(SCAN)) {
      const scan = index ? `${node} using ${index} on ${table}` : `${node} on ${table}`;
      if (!found.scans.includes(scan)) found.scans.push(scan);
      if (node!.includes("Seq Scan") && !found.seqScans.includes(table!)) found.seqScans.push(table!);
    }
    byStatement.set(statement, found);
  }
  return [...byStatement.values()];
}
