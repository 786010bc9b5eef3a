/**
 * `npm run bench:scale`: is a passkey login as fast with a million users as with a thousand, and with
 * ten million sessions and audit rows? One Sesame server (scripts/server.mjs) on a throwaway Postgres 15,
 * one tenant made by the CLI, 32 users registered over HTTP (the ones who log in), the rest of the data
 * written by SQL (bench/lib/seed.ts). See bench/README.md.
 *
 *   npm run bench:scale                         1,000 → 1,000,000 users, then 10,000,000 sessions and audit rows
 *   npm run bench:scale -- --quick              short windows (the data sizes stay)
 *   npm run bench:scale -- --users 100000 --rows 1000000
 *   npm run bench:scale -- --windows 5          measurement windows per run; the median is reported
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort, startPostgres, type Postgres } from "@/scripts/lib/postgres";
import type { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./lib/cleanup";
import { closedLoop, HttpClient, loginCeremony, registerUsers, type Target } from "./lib/client";
import { sampleWindow, summarize, type WindowResult, type WindowSamples } from "./lib/measure";
import { machineInfo, machineLoad, writeResults } from "./lib/meta";
import {
  disablePlanLogging,
  enablePlanLogging,
  logOffset,
  readPlans,
  type StatementPlans,
} from "./lib/plans";
import {
  connect,
  seedAuditLogs,
  seedSessions,
  seedUsers,
  tableSizes,
  vacuumAnalyze,
  type Sql,
} from "./lib/seed";
import { createTenant, sesameEnv, startServer, type RunningServer } from "./lib/servers";
import { formatTable, medianBy, round } from "./lib/stats";

const CONCURRENCIES = [1, 16];
/** Users registered over HTTP: they hold real passkeys and do the logins. */
const LOGIN_USERS = 32;
const BASE_USERS = 1_000;
/** The goal: p50 at c=1 within 10 % of the 1,000-user figure. */
const TARGET_P50_RATIO = 1.1;
const NOISY_CORES = 0.25;
const DATABASE = "bench_scale";
/** Logins (c=1) whose statements are captured with their plans. */
const EXPLAINED_LOGINS = 20;
const SEEDED_TABLES = ["users", "webauthn_credentials", "sessions", "audit_logs"];
const LOGIN_TABLES = [...SEEDED_TABLES, "tenants", "signing_keys", "webauthn_challenges", "api_keys"];

interface Options {
  quick: boolean;
  users: number;
  rows: number;
  warmupMs: number;
  windowMs: number;
  windows: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      users: { type: "string", default: "1000000" },
      rows: { type: "string", default: "10000000" },
      windows: { type: "string" },
    },
    strict: true,
  });
  const users = Number(values.users);
  const rows = Number(values.rows);
  const windows = Number(values.windows ?? (values.quick ? 1 : 3));
  if (!Number.isInteger(users) || users < BASE_USERS)
    throw new Error(`--users must be a whole number ≥ ${BASE_USERS}`);
  if (!Number.isInteger(rows) || rows < 0) throw new Error("--rows must be a whole number ≥ 0");
  if (!Number.isInteger(windows) || windows < 1) throw new Error("--windows must be a whole number ≥ 1");
  return {
    quick: values.quick,
    users,
    rows,
    warmupMs: values.quick ? 1_500 : 4_000,
    windowMs: values.quick ? 3_000 : 8_000,
    windows,
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (since: number) => round((performance.now() - since) / 1000, 1);

interface Run {
  concurrency: number;
  median: WindowResult;
  windows: WindowResult[];
  discarded: WindowResult[];
}

interface Stage {
  name: string;
  users: number;
  sessions: number;
  auditRows: number;
  /** Seconds per seeding step (INSERT … SELECT, VACUUM ANALYZE). */
  seedSeconds: Record<string, number>;
  tables: Awaited<ReturnType<typeof tableSizes>>;
  runs: Run[];
  plans?: StatementPlans[];
  /** Sizes of the tables read by a sequential scan in `plans`. */
  planTables?: Awaited<ReturnType<typeof tableSizes>>;
}

function postmasterPid(pg: Postgres): number {
  const first = fs.readFileSync(path.join(pg.dataDir, "postmaster.pid"), "utf8").split("\n")[0];
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("cannot read the postmaster's pid");
  return pid;
}

/** The server, restartable (plan logging applies to new connections only). */
class Server {
  running!: RunningServer;
  constructor(
    private readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string,
  ) {}
  async start(): Promise<void> {
    this.running = await startServer("next", this.port, this.env, this.logFile);
  }
  async restart(): Promise<void> {
    await this.running.stop();
    await this.start();
  }
}

async function measure(
  options: Options,
  target: Target,
  authenticators: WebAuthnSoftwareAuthenticator[],
  server: Server,
  pgPid: number,
  stage: string,
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const concurrency of CONCURRENCIES) {
    let start: WindowSamples | undefined;
    const sample = () => sampleWindow(server.running.pid, pgPid);
    const { kept, rejected } = await closedLoop(target, authenticators, {
      concurrency,
      warmupMs: options.warmupMs,
      windowMs: options.windowMs,
      windows: options.windows,
      maxWindows: options.windows * 3,
      onWindowStart: () => {
        start = sample();
      },
      onWindowEnd: (window) => {
        // RSS is not this benchmark's question: 0 stands for "not measured".
        const result = summarize(window, start!, sample(), 0);
        return { result, keep: result.otherCores <= NOISY_CORES };
      },
    });
    if (rejected.length > 0)
      log(`${stage}, c=${concurrency}: ${rejected.length} window(s) discarded (busy machine)`);
    const median = medianBy(kept, (r) => r.ceremoniesPerSecond);
    runs.push({ concurrency, median, windows: kept, discarded: rejected });
    log(
      `${stage}, c=${concurrency}: ${median.ceremoniesPerSecond}/s, p50 ${median.latencyMs.p50} ms, ` +
        `p99 ${median.latencyMs.p99} ms`,
    );
  }
  return runs;
}

/** Restarts the server with auto_explain on, runs a few logins at c=1, and reads their plans. */
async function explainLogins(
  sql: Sql,
  pg: Postgres,
  server: Server,
  target: Target,
  authenticator: WebAuthnSoftwareAuthenticator,
): Promise<StatementPlans[]> {
  const logFile = path.join(pg.dataDir, "server.log");
  await enablePlanLogging(sql, DATABASE);
  try {
    await server.restart();
    // One login first: the connections' start-up statements stay out of the capture.
    await loginCeremony(target, authenticator);
    const offset = logOffset(logFile);
    for (let i = 0; i < EXPLAINED_LOGINS; i++) await loginCeremony(target, authenticator);
    // The log is written by another process: give it a moment to flush.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return readPlans(logFile, offset);
  } finally {
    await disablePlanLogging(sql, DATABASE);
    await server.restart();
  }
}

function plansReport(stage: Stage): string {
  const plans = stage.plans ?? [];
  const sizes = new Map((stage.planTables ?? []).map((t) => [t.table, `${t.rows} rows, ${t.pages} pages`]));
  const rows = plans.map((p) => [
    p.statement.length > 90 ? `${p.statement.slice(0, 87)}…` : p.statement,
    String(p.executions),
    p.meanBuffers.toFixed(1),
    p.scans.join("; ") || "(no scan)",
    p.seqScans.map((t) => `${t} (${sizes.get(t) ?? "?"})`).join(", ") || "-",
  ]);
  return [
    `Statements of ${EXPLAINED_LOGINS} logins at ${stage.name} (auto_explain; a count that is not a ` +
      `multiple of ${EXPLAINED_LOGINS} is a background task's):`,
    "",
    formatTable(["statement", "runs", "buffers", "scans", "seq scan (table size)"], rows, 5),
  ].join("\n");
}

function resultsTable(stages: Stage[]): string {
  const base = stages[0]!;
  const at = (stage: Stage, c: number) => stage.runs.find((r) => r.concurrency === c)!.median;
  const ratio = (a: number, b: number) => (b === 0 ? "-" : (a / b).toFixed(2));
  const rows = stages.flatMap((stage) =>
    stage.runs.map(({ concurrency: c, median: m }) => [
      stage.name,
      String(c),
      m.ceremoniesPerSecond.toFixed(0),
      m.latencyMs.p50.toFixed(1),
      m.latencyMs.p99.toFixed(1),
      m.serverCpuMsPerCeremony.toFixed(2),
      (m.postgresCpuMsPerCeremony ?? 0).toFixed(2),
      m.otherCores.toFixed(2),
      ratio(m.ceremoniesPerSecond, at(base, c).ceremoniesPerSecond),
      ratio(m.latencyMs.p50, at(base, c).latencyMs.p50),
      ratio(m.latencyMs.p99, at(base, c).latencyMs.p99),
      String(m.errors),
    ]),
  );
  return formatTable(
    [
      "data",
      "c",
      "logins/s",
      "p50 ms",
      "p99 ms",
      "server CPU ms",
      "Postgres CPU ms",
      "other load",
      "thr. ÷ 1k",
      "p50 ÷ 1k",
      "p99 ÷ 1k",
      "errors",
    ],
    rows,
    1,
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  cleanupOnSignals();
  if (!buildIfNeeded(log)) throw new Error("next build failed");
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-scale-"));
  onCleanup("temporary folder", () => fs.rmSync(workDir, { recursive: true, force: true }));
  const idleLoad = await machineLoad();
  if (idleLoad > NOISY_CORES)
    log(`Warning: the machine is busy before the benchmark (${idleLoad} cores in use).`);
  const startedAt = new Date();

  log("Starting a throwaway Postgres 15 cluster …");
  const pg = await startPostgres();
  onCleanup("Postgres cluster", () => pg.destroy());
  pg.createDatabase(DATABASE);
  const url = pg.url(DATABASE);
  const pgPid = postmasterPid(pg);
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env = sesameEnv(port, { dataDir: path.join(workDir, "data"), databaseUrl: url });
  const tenant = createTenant(env, origin);
  // Another tenant's rows share the tables and indexes, as on a real multi-tenant instance.
  const other = createTenant(env, origin, "other");
  const server = new Server(port, env, path.join(workDir, "server.log"));
  await server.start();
  const sql = connect(url);
  onCleanup("seed connection", () => sql.end({ timeout: 1 }));
  const client = new HttpClient("127.0.0.1", port);
  onCleanup("HTTP client", () => client.close());
  const target: Target = { client, tenantId: tenant.tenantId, origin };

  let started = performance.now();
  const authenticators = await registerUsers(target, tenant.passkeyApiKey, LOGIN_USERS);
  log(`Registered ${LOGIN_USERS} passkeys over HTTP in ${seconds(started)} s`);

  const stages: Stage[] = [];
  const stage = async (
    name: string,
    seed: () => Promise<Record<string, number>>,
    counts: { users: number; sessions: number; auditRows: number },
    explain: boolean,
  ) => {
    log(`${name}: seeding …`);
    const seedSeconds = await seed();
    started = performance.now();
    await vacuumAnalyze(sql, SEEDED_TABLES);
    seedSeconds.vacuumAnalyze = seconds(started);
    log(`${name}: ${JSON.stringify(seedSeconds)} (seconds)`);
    const tables = await tableSizes(sql, LOGIN_TABLES);
    const runs = await measure(options, target, authenticators, server, pgPid, name);
    const result: Stage = { name, ...counts, seedSeconds, tables, runs };
    if (explain) {
      result.plans = await explainLogins(sql, pg, server, target, authenticators[0]!);
      result.planTables = await tableSizes(sql, [...new Set(result.plans.flatMap((p) => p.seqScans))]);
      log(plansReport(result));
    }
    stages.push(result);
  };

  const timed = async (steps: Record<string, () => Promise<unknown>>) => {
    const out: Record<string, number> = {};
    for (const [name, step] of Object.entries(steps)) {
      const t = performance.now();
      await step();
      out[name] = seconds(t);
    }
    return out;
  };

  const fmt = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
  await stage(
    `${fmt(BASE_USERS)} users`,
    () => timed({ users: () => seedUsers(sql, tenant.tenantId, 1, BASE_USERS - LOGIN_USERS) }),
    { users: BASE_USERS, sessions: 0, auditRows: 0 },
    false,
  );
  await stage(
    `${fmt(options.users)} users`,
    () =>
      timed({
        users: () =>
          seedUsers(sql, tenant.tenantId, BASE_USERS - LOGIN_USERS + 1, options.users - LOGIN_USERS),
        otherTenantUsers: () => seedUsers(sql, other.tenantId, 1, Math.round(options.users / 10)),
      }),
    { users: options.users, sessions: 0, auditRows: 0 },
    true,
  );
  if (options.rows > 0) {
    await stage(
      `${fmt(options.users)} users, ${fmt(options.rows)} sessions + audit`,
      () =>
        timed({
          sessions: () => seedSessions(sql, tenant.tenantId, options.rows),
          auditLogs: () => seedAuditLogs(sql, tenant.tenantId, options.rows),
        }),
      { users: options.users, sessions: options.rows, auditRows: options.rows },
      true,
    );
  }

  const base = stages[0]!.runs.find((r) => r.concurrency === 1)!.median.latencyMs.p50;
  const goalLines = stages.slice(1).map((s) => {
    const p50 = s.runs.find((r) => r.concurrency === 1)!.median.latencyMs.p50;
    const r = p50 / base;
    return `${s.name}: p50 at c=1 ${p50.toFixed(2)} ms ÷ ${base.toFixed(2)} ms = ${r.toFixed(3)} (goal ≤ ${TARGET_P50_RATIO}: ${r <= TARGET_P50_RATIO ? "met" : "MISSED"})`;
  });
  const seeding = stages.map(
    (s) =>
      `${s.name}: ` +
      Object.entries(s.seedSeconds)
        .map(([k, v]) => `${k} ${v} s`)
        .join(", "),
  );
  process.stdout.write(
    [
      "",
      `Discoverable passkey logins on Postgres 15, ${options.windowMs / 1000} s windows` +
        (options.windows > 1 ? ` (median of ${options.windows})` : "") +
        `, after ${options.warmupMs / 1000} s of warm-up; ${LOGIN_USERS} users log in. CPU per login.`,
      "",
      resultsTable(stages),
      "",
      ...goalLines,
      "",
      "Seeding (seconds):",
      ...seeding,
      "",
      "Tables at the end:",
      formatTable(
        ["table", "rows", "total MB", "indexes MB"],
        stages.at(-1)!.tables.map((t) => [t.table, String(t.rows), String(t.totalMb), String(t.indexMb)]),
        1,
      ),
      "",
    ].join("\n"),
  );
  for (const s of stages) {
    if (s.plans) {
      process.stdout.write(`${plansReport(s)}\n\n`);
    }
  }

  const file = writeResults([options.quick ? "scale-quick" : "scale"], {
    date: startedAt.toISOString(),
    machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
    settings: {
      quick: options.quick,
      users: options.users,
      rows: options.rows,
      loginUsers: LOGIN_USERS,
      concurrencies: CONCURRENCIES,
      warmupSeconds: options.warmupMs / 1000,
      windowSeconds: options.windowMs / 1000,
      windows: options.windows,
      postgres: "throwaway cluster from scripts/lib/postgres.ts: fsync=off, synchronous_commit=off",
    },
    targets: { p50RatioAtMost: TARGET_P50_RATIO },
    stages,
  });
  log(`Results written to ${file}`);
}

main()
  .catch((error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`\nThe benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
