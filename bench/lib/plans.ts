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
    ["auto_explain.log_format", "json"],
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
  /** The statement as the driver sent it, whitespace collapsed. */
  statement: string;
  executions: number;
  /** Every scan node seen over the executions, as "Index Scan using <index> on <table>". */
  scans: string[];
  /** Tables read by a sequential scan in any execution. */
  seqScans: string[];
  /** Mean shared buffers (hit + read) per execution: grows with the data if a plan does not scale. */
  meanBuffers: number;
  /** One plan as logged (the last execution's), as JSON. */
  samplePlan: unknown;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Scan Direction"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

const ENTRY_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/;
const PLAN_ENTRY = /duration: [\d.]+ ms\s+plan:\n/;

function* nodes(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodes(child);
}

/** The auto_explain entries (JSON format) written to `logFile` after `offset`, grouped by statement. */
export function readPlans(logFile: string, offset: number): StatementPlans[] {
  const text = fs.readFileSync(logFile, "utf8").slice(offset);
  // An entry is its first line plus the continuation lines Postgres indents with a tab.
  const entries: string[] = [];
  for (const line of text.split("\n")) {
    if (ENTRY_START.test(line)) entries.push(line);
    else if (entries.length > 0) entries[entries.length - 1] += `\n${line.replace(/^\t/, "")}`;
  }
  const byStatement = new Map<string, StatementPlans & { buffers: number }>();
  for (const entry of entries) {
    const match = PLAN_ENTRY.exec(entry);
    if (!match) continue;
    let logged: { "Query Text": string; Plan: PlanNode };
    try {
      logged = JSON.parse(entry.slice(match.index + match[0].length)) as typeof logged;
    } catch {
      continue; // an entry cut off at the end of the read
    }
    const statement = logged["Query Text"].replace(/\s+/g, " ").trim();
    const found = byStatement.get(statement) ?? {
      statement,
      executions: 0,
      scans: [],
      seqScans: [],
      meanBuffers: 0,
      buffers: 0,
      samplePlan: null,
    };
    found.executions++;
    found.samplePlan = logged.Plan;
    // The top node's buffer counts include its children's.
    found.buffers += (logged.Plan["Shared Hit Blocks"] ?? 0) + (logged.Plan["Shared Read Blocks"] ?? 0);
    for (const node of nodes(logged.Plan)) {
      const type = node["Node Type"];
      const table = node["Relation Name"];
      if (!type.includes("Scan") || !table) continue;
      const backward = node["Scan Direction"] === "Backward" ? " Backward" : "";
      const index = node["Index Name"];
      const scan = index ? `${type}${backward} using ${index} on ${table}` : `${type} on ${table}`;
      if (!found.scans.includes(scan)) found.scans.push(scan);
      if (type.includes("Seq Scan") && !found.seqScans.includes(table)) found.seqScans.push(table);
    }
    byStatement.set(statement, found);
  }
  return [...byStatement.values()].map(({ buffers, ...plans }) => ({
    ...plans,
    meanBuffers: Math.round((buffers / plans.executions) * 10) / 10,
  }));
}
