/**
 * The harness shared by `npm run bench:uaf` and `npm run bench:flow`: one Sesame server per database
 * (scripts/server.mjs, as `npm start` runs it, with a tenant made by the CLI before it starts), users
 * prepared over HTTP, then a closed loop of one ceremony at concurrency 1 and 16 with the same report as
 * `npm run bench` (ceremonies/s, p50/p99, server and Postgres CPU per ceremony, peak RSS, other load).
 *
 * It keeps its own HTTP client, closed loop and window summary instead of bench/lib/client.ts and
 * bench/lib/measure.ts: those are shaped around the Passkey API's two-step login, while these
 * ceremonies have other steps (and the flow API needs response headers for its session cookie).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort, startPostgres, type Postgres } from "@/scripts/lib/postgres";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./cleanup";
import { machineInfo, machineLoad, writeResults } from "./meta";
import {
  cpuSecondsBetween,
  machineBusySeconds,
  peakRssBytes,
  RssMonitor,
  sampleCpu,
  type CpuSample,
} from "./proc";
import { sesameEnv, startServer } from "./servers";
import { formatTable, mean, medianBy, percentile, round } from "./stats";

export type DatabaseKind = "pglite" | "postgres";

const DATABASES: DatabaseKind[] = ["pglite", "postgres"];
const CONCURRENCIES = [1, 16];
/** A window in which other processes used more CPU than this (in cores) is run again. */
const NOISY_CORES = 0.25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const log = (line: string) => process.stderr.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------
// HTTP client

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/**
 * A keep-alive `node:http` client (cheaper per request than fetch, so it takes less CPU from the server
 * on a small machine) that also hands back the response headers.
 */
export class BenchHttp {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  constructor(readonly port: number) {}

  request(
    method: string,
    requestPath: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<HttpAnswer>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: this.port,
          method,
          path: requestPath,
          agent: this.agent,
          headers: {
            ...headers,
            ...(payload
              ? { "content-type": "application/json", "content-length": payload.length }
              : { "content-length": 0 }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text for the error message
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The body of an answer with the expected status (an object), else an error naming the step. */
export async function expectStatus(
  answer: Promise<HttpAnswer>,
  status: number,
  what: string,
): Promise<Record<string, unknown>> {
  const { status: got, body } = await answer;
  if (got !== status || typeof body !== "object" || body === null) {
    throw new Error(`${what}: HTTP ${got} ${JSON.stringify(body)}`);
  }
  return body as Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------
// Tenant

export interface BenchTenant {
  tenantId: string;
  adminApiKey: string;
  passkeyApiKey: string;
  authenticatorApiKey: string;
}

/**
 * `npm run sesame -- tenant create … --json` against the store, before the server opens it. The
 * benchmark is one client on loopback playing many users, so the per-IP limits it would hit are lifted
 * (`extraArgs` adds more).
 */
export function createBenchTenant(env: NodeJS.ProcessEnv, origin: string, extraArgs: string[]): BenchTenant {
  const args = [
    ...["--name", "bench", "--rp-id", "localhost", "--origin", origin],
    ...["--rate-limit", "webauthn_login=100000/1", "--json"],
    ...extraArgs,
  ];
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "cli/sesame.ts", "tenant", "create", ...args],
    { env, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`tenant create failed:\n${result.stdout}\n${result.stderr}`);
  const output = JSON.parse(result.stdout) as {
    tenant: { id: string };
    keys: { admin: string; passkey: string; authenticator: string };
  };
  return {
    tenantId: output.tenant.id,
    adminApiKey: output.keys.admin,
    passkeyApiKey: output.keys.passkey,
    authenticatorApiKey: output.keys.authenticator,
  };
}

// ---------------------------------------------------------------------------------------------------
// Closed loop

/** How long one ceremony took, in ms: the whole, and its steps as the client saw them. */
export interface CeremonyTiming {
  total: number;
  steps: Record<string, number>;
}

/** One ceremony by one virtual client (each client has its own user, device or passkey). */
export type VirtualClient = () => Promise<CeremonyTiming>;

/** Times the steps of one ceremony: `step(name, work)` runs and times one step. */
export function stepTimer() {
  const started = performance.now();
  const steps: Record<string, number> = {};
  return {
    async step<T>(name: string, work: () => Promise<T>): Promise<T> {
      const t0 = performance.now();
      try {
        return await work();
      } finally {
        steps[name] = (steps[name] ?? 0) + performance.now() - t0;
      }
    },
    done(): CeremonyTiming {
      return { total: performance.now() - started, steps };
    },
  };
}

interface Window {
  startedAt: number;
  endedAt: number;
  timings: CeremonyTiming[];
  errors: number;
}

interface LoopPlan<R> {
  concurrency: number;
  warmupMs: number;
  windowMs: number;
  windows: number;
  maxWindows: number;
  onWindowStart: () => void;
  onWindowEnd: (window: Window) => { result: R; keep: boolean };
}

/**
 * `concurrency` virtual clients run their ceremony back to back through a warm-up, then consecutive
 * windows until `windows` are kept (or `maxWindows` ran; then the last ones are kept). A ceremony counts
 * in the window in which it completes. Stops after more than 1 % of ceremonies failed (and over 10).
 */
async function closedLoop<R>(
  clients: VirtualClient[],
  plan: LoopPlan<R>,
): Promise<{ kept: R[]; rejected: R[] }> {
  if (clients.length < plan.concurrency) throw new Error("fewer users than virtual clients");
  let stopped = false;
  let current: Window | undefined;
  let completed = 0;
  let failed = 0;
  let fatal: unknown;

  const worker = async (ceremony: VirtualClient) => {
    while (!stopped) {
      try {
        const timing = await ceremony();
        completed++;
        current?.timings.push(timing);
      } catch (error) {
        failed++;
        if (current) current.errors++;
        if (failed > 10 && failed > completed / 100) {
          fatal ??= error;
          stopped = true;
        }
      }
    }
  };
  const workers = clients.slice(0, plan.concurrency).map(worker);

  const kept: R[] = [];
  const rejected: R[] = [];
  await sleep(plan.warmupMs);
  for (let run = 0; kept.length < plan.windows && !stopped; run++) {
    plan.onWindowStart();
    current = { startedAt: performance.now(), endedAt: 0, timings: [], errors: 0 };
    await sleep(plan.windowMs);
    current.endedAt = performance.now();
    const { result, keep } = plan.onWindowEnd(current);
    current = undefined;
    const last = plan.maxWindows - run <= plan.windows - kept.length;
    (keep || last ? kept : rejected).push(result);
  }
  stopped = true;
  await Promise.all(workers);
  if (fatal) throw fatal;
  return { kept, rejected };
}

// ---------------------------------------------------------------------------------------------------
// Measurement

interface Samples {
  server: CpuSample;
  postgres: CpuSample | undefined;
  client: NodeJS.CpuUsage;
  machine: number;
}

const sample = (serverPid: number, postgresPid: number | undefined): Samples => ({
  server: sampleCpu(serverPid),
  postgres: postgresPid ? sampleCpu(postgresPid) : undefined,
  client: process.cpuUsage(),
  machine: machineBusySeconds(),
});

/** Figures of one measurement window (the same fields as `npm run bench`, with named steps). */
export interface WindowResult {
  seconds: number;
  ceremonies: number;
  errors: number;
  ceremoniesPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Mean time of each step of a ceremony, ms. */
  stepMeanMs: Record<string, number>;
  serverCpuMsPerCeremony: number;
  serverCores: number;
  postgresCpuMsPerCeremony: number | null;
  clientCpuMsPerCeremony: number;
  peakRssMb: number;
  otherCores: number;
}

function summarize(window: Window, start: Samples, end: Samples, peakRss: number): WindowResult {
  const seconds = (window.endedAt - window.startedAt) / 1000;
  const n = window.timings.length;
  const perCeremony = (cpuSeconds: number) => (n === 0 ? 0 : round((cpuSeconds * 1000) / n, 2));
  const total = window.timings.map((t) => t.total).sort((a, b) => a - b);
  const stepNames = [...new Set(window.timings.flatMap((t) => Object.keys(t.steps)))];
  const serverCpu = cpuSecondsBetween(start.server, end.server);
  const postgresCpu = start.postgres && end.postgres ? cpuSecondsBetween(start.postgres, end.postgres) : null;
  const clientCpu =
    (end.client.user - start.client.user + end.client.system - start.client.system) / 1_000_000;
  return {
    seconds: round(seconds, 2),
    ceremonies: n,
    errors: window.errors,
    ceremoniesPerSecond: round(n / seconds),
    latencyMs: {
      p50: round(percentile(total, 50), 2),
      p90: round(percentile(total, 90), 2),
      p99: round(percentile(total, 99), 2),
      max: round(total.at(-1) ?? 0, 2),
      mean: round(mean(total), 2),
    },
    stepMeanMs: Object.fromEntries(
      stepNames.map((name) => [name, round(mean(window.timings.map((t) => t.steps[name] ?? 0)), 2)]),
    ),
    serverCpuMsPerCeremony: perCeremony(serverCpu),
    serverCores: round(serverCpu / seconds, 2),
    postgresCpuMsPerCeremony: postgresCpu === null ? null : perCeremony(postgresCpu),
    clientCpuMsPerCeremony: perCeremony(clientCpu),
    peakRssMb: round(peakRss / 2 ** 20),
    otherCores: round(
      Math.max(0, end.machine - start.machine - serverCpu - (postgresCpu ?? 0) - clientCpu) / seconds,
      2,
    ),
  };
}

// ---------------------------------------------------------------------------------------------------
// The benchmark

/** What a ceremony's benchmark sees once the server is up. */
export interface BenchContext {
  http: BenchHttp;
  tenant: BenchTenant;
  /** The tenant's web origin (http://localhost:<port>), Sesame's base URL as well. */
  origin: string;
  users: number;
}

export interface Prepared {
  /** One per user; the first `concurrency` run the loop. */
  clients: VirtualClient[];
  /** Runs once after the loops, before the server stops (a final check); its result goes in the JSON. */
  check?: () => Promise<Record<string, unknown>>;
}

export interface CeremonySpec {
  /** Results file infix: bench/results/<date>-<name>[-quick][-<db>].json */
  name: string;
  /** What one ceremony is, for the report's heading. */
  title: string;
  /** Extra `tenant create` options (settings, rate limits). */
  tenantArgs: string[];
  /** The steps of a ceremony, in order, for the JSON's description. */
  steps: Record<string, string>;
  /** Registers the users (devices, passkeys) over HTTP and returns their virtual clients. */
  prepare(context: BenchContext): Promise<Prepared>;
}

interface Options {
  quick: boolean;
  databases: DatabaseKind[];
  users: number;
  warmupMs: number;
  windowMs: number;
  windows: number;
  cpuProf: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      db: { type: "string", default: "pglite" },
      users: { type: "string", default: "32" },
      windows: { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
    },
    strict: true,
  });
  const databases = values.db === "both" ? DATABASES : DATABASES.filter((database) => database === values.db);
  if (databases.length === 0) throw new Error("--db must be pglite, postgres or both");
  const users = Number(values.users);
  const windows = Number(values.windows ?? (values.quick ? 1 : 3));
  const most = Math.max(...CONCURRENCIES);
  if (!Number.isInteger(users) || users < most) throw new Error(`--users must be a whole number ≥ ${most}`);
  if (!Number.isInteger(windows) || windows < 1) throw new Error("--windows must be a whole number ≥ 1");
  return {
    quick: values.quick,
    databases,
    users,
    warmupMs: values.quick ? 1_500 : 4_000,
    windowMs: values.quick ? 3_000 : 8_000,
    windows,
    cpuProf: values["cpu-prof"],
  };
}

interface RunResult {
  database: DatabaseKind;
  concurrency: number;
  /** The window with the median throughput. */
  median: WindowResult;
  windows: WindowResult[];
  /** Windows run again because other processes used the CPU meanwhile ("other load" too high). */
  discarded: WindowResult[];
}

interface DatabaseRuns {
  runs: RunResult[];
  /** Time to prepare the users over HTTP, ms. */
  prepareMs: number;
  /** VmHWM of the server's main process at the end (its lifetime peak), MB. */
  lifetimePeakRssMb: number;
  check: Record<string, unknown> | undefined;
}

function postmasterPid(pg: Postgres): number {
  const first = fs.readFileSync(path.join(pg.dataDir, "postmaster.pid"), "utf8").split("\n")[0];
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("cannot read the postmaster's pid");
  return pid;
}

async function benchDatabase(
  spec: CeremonySpec,
  options: Options,
  database: DatabaseKind,
  workDir: string,
  pg: Postgres | undefined,
  profileDir: string | undefined,
): Promise<DatabaseRuns> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dir = fs.mkdtempSync(path.join(workDir, `${database}-`));
  let databaseUrl: string | undefined;
  if (pg) {
    pg.createDatabase(`bench_${spec.name}`);
    databaseUrl = pg.url(`bench_${spec.name}`);
  }
  const env = sesameEnv(port, { dataDir: path.join(dir, "data"), databaseUrl });

  log(`${database}: creating the tenant, starting the server on port ${port} …`);
  const tenant = createBenchTenant(env, origin, spec.tenantArgs);
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profileDir, database)}`] : [];
  const running = await startServer("next", port, env, path.join(dir, "server.log"), nodeArgs);
  const client = new BenchHttp(port);
  const rss = new RssMonitor(running.pid);
  const pgPid = pg ? postmasterPid(pg) : undefined;
  try {
    const started = performance.now();
    const prepared = await spec.prepare({ http: client, tenant, origin, users: options.users });
    const prepareMs = Math.round(performance.now() - started);
    log(`${database}: prepared ${options.users} users in ${prepareMs} ms`);

    const runs: RunResult[] = [];
    for (const concurrency of CONCURRENCIES) {
      let start: Samples | undefined;
      rss.reset();
      const { kept, rejected } = await closedLoop(prepared.clients, {
        concurrency,
        warmupMs: options.warmupMs,
        windowMs: options.windowMs,
        windows: options.windows,
        maxWindows: options.windows * 3,
        onWindowStart: () => {
          rss.reset();
          start = sample(running.pid, pgPid);
        },
        onWindowEnd: (window) => {
          const result = summarize(window, start!, sample(running.pid, pgPid), rss.reset());
          return { result, keep: result.otherCores <= NOISY_CORES };
        },
      });
      if (rejected.length > 0) {
        log(
          `${database}, c=${concurrency}: ${rejected.length} window(s) discarded, other processes were busy`,
        );
      }
      const median = medianBy(kept, (r) => r.ceremoniesPerSecond);
      runs.push({ database, concurrency, median, windows: kept, discarded: rejected });
      log(
        `${database}, c=${concurrency}: ${median.ceremoniesPerSecond}/s, p50 ${median.latencyMs.p50} ms, ` +
          `p99 ${median.latencyMs.p99} ms, ${median.serverCpuMsPerCeremony} ms server CPU per ceremony`,
      );
    }
    const check = prepared.check ? await prepared.check() : undefined;
    return { runs, prepareMs, lifetimePeakRssMb: round(peakRssBytes(running.pid) / 2 ** 20), check };
  } finally {
    rss.stop();
    client.close();
    await running.stop();
  }
}

/** "min–max" ceremonies per second over the kept windows ("-" for one window). */
function throughputRange(windows: WindowResult[]): string {
  if (windows.length < 2) return "-";
  const rates = windows.map((w) => w.ceremoniesPerSecond);
  return `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`;
}

function tableOf(runs: RunResult[]): string {
  const rows = runs.map(({ database, concurrency, median: m, windows }) => [
    database,
    String(concurrency),
    m.ceremoniesPerSecond.toFixed(1),
    throughputRange(windows),
    m.latencyMs.p50.toFixed(1),
    m.latencyMs.p99.toFixed(1),
    m.serverCpuMsPerCeremony.toFixed(2),
    m.postgresCpuMsPerCeremony === null ? "-" : m.postgresCpuMsPerCeremony.toFixed(2),
    m.serverCores.toFixed(2),
    m.peakRssMb.toFixed(0),
    m.otherCores.toFixed(2),
    String(m.errors),
  ]);
  return formatTable(
    [
      "database",
      "c",
      "ceremonies/s",
      "(range)",
      "p50 ms",
      "p99 ms",
      "server CPU ms/cer.",
      "+Postgres CPU ms/cer.",
      "server cores",
      "peak RSS MB",
      "other load",
      "errors",
    ],
    rows,
    1,
  );
}

/** Mean time of each step at each concurrency (median window), so a slower step stands out. */
function stepsTableOf(runs: RunResult[]): string {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.median.stepMeanMs)))];
  const rows = runs.map((r) => [
    r.database,
    String(r.concurrency),
    ...names.map((name) => (r.median.stepMeanMs[name] ?? 0).toFixed(1)),
  ]);
  return formatTable(["database", "c", ...names.map((name) => `${name} ms`)], rows, 1);
}

function quietnessLines(runs: RunResult[]): string[] {
  const worst = Math.max(0, ...runs.flatMap((r) => r.windows.map((w) => w.otherCores)));
  if (worst <= NOISY_CORES) return [];
  return [
    `Warning: other processes used up to ${worst.toFixed(2)} cores during the runs ("other load"); ` +
      "rerun on a quiet machine before trusting these figures.",
  ];
}

/** Runs the benchmark of one ceremony from the command line (see the entry points). */
export async function runCeremonyBench(spec: CeremonySpec): Promise<void> {
  try {
    const options = parseOptions(process.argv.slice(2));
    cleanupOnSignals();
    if (!buildIfNeeded(log)) throw new Error("next build failed");

    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `sesame-bench-${spec.name}-`));
    onCleanup("temporary folder", () => fs.rmSync(workDir, { recursive: true, force: true }));
    const profileDir = options.cpuProf
      ? fs.mkdtempSync(path.join(os.tmpdir(), `sesame-bench-${spec.name}-prof-`))
      : undefined;

    const idleLoad = await machineLoad();
    if (idleLoad > NOISY_CORES)
      log(`Warning: the machine is busy before the benchmark (${idleLoad} cores in use).`);
    const startedAt = new Date();
    const runs: RunResult[] = [];
    const perDatabase: Record<string, Omit<DatabaseRuns, "runs">> = {};
    for (const database of options.databases) {
      let pg: Postgres | undefined;
      let destroyPostgres = async () => {};
      if (database === "postgres") {
        log("Starting a throwaway Postgres 15 cluster …");
        const cluster = await startPostgres();
        pg = cluster;
        destroyPostgres = onCleanup("Postgres cluster", () => cluster.destroy());
      }
      try {
        const { runs: databaseRuns, ...rest } = await benchDatabase(
          spec,
          options,
          database,
          workDir,
          pg,
          profileDir,
        );
        runs.push(...databaseRuns);
        perDatabase[database] = rest;
      } finally {
        await destroyPostgres();
      }
    }

    const checks = Object.entries(perDatabase).flatMap(([database, { check }]) =>
      check ? [`${database}: ${JSON.stringify(check)}`] : [],
    );
    const report = [
      "",
      `${spec.title}, ${options.windowMs / 1000} s per run` +
        (options.windows > 1 ? ` (median of ${options.windows} windows)` : "") +
        `, after ${options.warmupMs / 1000} s of warm-up; ${options.users} users.`,
      "",
      tableOf(runs),
      "",
      "Mean time per step (ms, as the client sees it):",
      stepsTableOf(runs),
      ...(checks.length > 0 ? ["", "Final check:", ...checks] : []),
      ...quietnessLines(runs),
      "",
    ].join("\n");
    process.stdout.write(report);

    const results = {
      date: startedAt.toISOString(),
      benchmark: spec.name,
      ceremony: spec.title,
      steps: spec.steps,
      machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
      settings: {
        quick: options.quick,
        users: options.users,
        concurrencies: CONCURRENCIES,
        warmupSeconds: options.warmupMs / 1000,
        windowSeconds: options.windowMs / 1000,
        windows: options.windows,
        tenantArgs: spec.tenantArgs,
        signingAlgorithm: "RS256 (tenant default)",
        postgres: "throwaway cluster from scripts/lib/postgres.ts: fsync=off, synchronous_commit=off",
        client: "closed loop on the same machine, node:http keep-alive (the UAF phone app: fetch)",
      },
      perDatabase,
      runs,
    };
    // Quick, partial and profiled runs get suffixes, so they never replace a full run's file.
    const suffixes = [
      spec.name,
      options.quick ? "quick" : "",
      options.databases.length === 1 ? options.databases[0]! : "",
      options.cpuProf ? "prof" : "",
    ];
    const file = writeResults(suffixes, results);
    log(`Results written to ${file}`);
    if (profileDir) log(`CPU profiles (kept): ${profileDir}`);
  } catch (error: unknown) {
    if (!interrupted()) {
      process.stderr.write(
        `\nThe benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    await cleanupAll();
  }
}
