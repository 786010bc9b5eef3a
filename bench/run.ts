/**
 * `npm run bench`: passkey login ceremonies per second, latency, server CPU and memory for Sesame's
 * server (scripts/server.mjs, what `npm start` runs) and for the bare `node:http` floor server, on PGlite
 * and on Postgres 15. See bench/README.md.
 *
 *   npm run bench                         full run: 3 windows of 8 s per run (≈ 5 minutes on 2 vCPUs)
 *   npm run bench -- --quick              one window of 3 s per run
 *   npm run bench -- --only pglite        one database (pglite | postgres)
 *   npm run bench -- --server next        one server (next | floor)
 *   npm run bench -- --windows 3          measurement windows per run; the median is reported
 *   npm run bench -- --cpu-prof           write V8 CPU profiles of the servers (kept in a temp folder)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort, startPostgres, type Postgres } from "@/scripts/lib/postgres";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./lib/cleanup";
import { closedLoop, HttpClient, registerUsers, type Target } from "./lib/client";
import { sampleWindow, summarize, type WindowResult, type WindowSamples } from "./lib/measure";
import { machineInfo, machineLoad, writeResults } from "./lib/meta";
import { peakRssBytes, RssMonitor } from "./lib/proc";
import { createTenant, sesameEnv, startServer, type ServerKind } from "./lib/servers";
import { formatTable, medianBy, round } from "./lib/stats";

type DatabaseKind = "pglite" | "postgres";

const DATABASES: DatabaseKind[] = ["pglite", "postgres"];
const SERVERS: ServerKind[] = ["next", "floor"];
const SERVER_LABEL: Record<ServerKind, string> = { next: "Next.js", floor: "floor" };
const CONCURRENCIES = [1, 16];
const TARGET_THROUGHPUT_RATIO = 0.6;
const TARGET_P99_RATIO = 1.5;
/** A window in which other processes used more CPU than this (in cores) is run again. */
const NOISY_CORES = 0.25;

interface Options {
  quick: boolean;
  databases: DatabaseKind[];
  servers: ServerKind[];
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
      only: { type: "string" },
      server: { type: "string" },
      users: { type: "string", default: "32" },
      windows: { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
    },
    strict: true,
  });
  const pick = <T extends string>(value: string | undefined, all: T[], flag: string): T[] => {
    if (value === undefined) return all;
    if (!all.includes(value as T)) throw new Error(`--${flag} must be one of ${all.join(", ")}`);
    return [value as T];
  };
  const users = Number(values.users);
  const windows = Number(values.windows ?? (values.quick ? 1 : 3));
  if (!Number.isInteger(users) || users < Math.max(...CONCURRENCIES)) {
    throw new Error(`--users must be a whole number ≥ ${Math.max(...CONCURRENCIES)}`);
  }
  if (!Number.isInteger(windows) || windows < 1) throw new Error("--windows must be a whole number ≥ 1");
  return {
    quick: values.quick,
    databases: pick(values.only, DATABASES, "only"),
    servers: pick(values.server, SERVERS, "server"),
    users,
    warmupMs: values.quick ? 1_500 : 4_000,
    windowMs: values.quick ? 3_000 : 8_000,
    windows,
    cpuProf: values["cpu-prof"],
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

interface RunResult {
  database: DatabaseKind;
  server: ServerKind;
  concurrency: number;
  /** The window with the median throughput. */
  median: WindowResult;
  windows: WindowResult[];
  /** Windows run again because other processes used the CPU meanwhile ("other load" too high). */
  discarded: WindowResult[];
}

function postmasterPid(pg: Postgres): number {
  const first = fs.readFileSync(path.join(pg.dataDir, "postmaster.pid"), "utf8").split("\n")[0];
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("cannot read the postmaster's pid");
  return pid;
}

interface ServerRuns {
  runs: RunResult[];
  /** VmHWM of the server's main process at the end (its lifetime peak), MB. */
  lifetimePeakRssMb: number;
}

async function benchServer(
  options: Options,
  database: DatabaseKind,
  server: ServerKind,
  workDir: string,
  pg: Postgres | undefined,
  profileDir: string | undefined,
): Promise<ServerRuns> {
  const label = `${database} / ${SERVER_LABEL[server]}`;
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dir = fs.mkdtempSync(path.join(workDir, `${database}-${server}-`));
  let databaseUrl: string | undefined;
  if (pg) {
    const name = `bench_${server}`;
    pg.createDatabase(name);
    databaseUrl = pg.url(name);
  }
  const env = sesameEnv(port, { dataDir: path.join(dir, "data"), databaseUrl });

  log(`${label}: creating the tenant, starting the server on port ${port} …`);
  const tenant = createTenant(env, origin);
  const nodeArgs = profileDir
    ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profileDir, label.replace(/\W+/g, "-"))}`]
    : [];
  const running = await startServer(server, port, env, path.join(dir, "server.log"), nodeArgs);
  const client = new HttpClient("127.0.0.1", port);
  const rss = new RssMonitor(running.pid);
  const pgPid = pg ? postmasterPid(pg) : undefined;
  try {
    const target: Target = { client, tenantId: tenant.tenantId, origin };
    const started = performance.now();
    const authenticators = await registerUsers(target, tenant.passkeyApiKey, options.users);
    log(`${label}: registered ${options.users} passkeys in ${Math.round(performance.now() - started)} ms`);

    const runs: RunResult[] = [];
    for (const concurrency of CONCURRENCIES) {
      let start: WindowSamples | undefined;
      const sample = (): WindowSamples => sampleWindow(running.pid, pgPid);
      rss.reset();
      const { kept: results, rejected } = await closedLoop(target, authenticators, {
        concurrency,
        warmupMs: options.warmupMs,
        windowMs: options.windowMs,
        windows: options.windows,
        maxWindows: options.windows * 3,
        onWindowStart: () => {
          rss.reset();
          start = sample();
        },
        onWindowEnd: (window) => {
          const result = summarize(window, start!, sample(), rss.reset());
          return { result, keep: result.otherCores <= NOISY_CORES };
        },
      });
      if (rejected.length > 0) {
        log(`${label}, c=${concurrency}: ${rejected.length} window(s) discarded, other processes were busy`);
      }
      const median = medianBy(results, (r) => r.ceremoniesPerSecond);
      runs.push({ database, server, concurrency, median, windows: results, discarded: rejected });
      log(
        `${label}, c=${concurrency}: ${median.ceremoniesPerSecond}/s, p50 ${median.latencyMs.p50} ms, ` +
          `p99 ${median.latencyMs.p99} ms, ${median.serverCpuMsPerCeremony} ms server CPU per ceremony`,
      );
    }
    return { runs, lifetimePeakRssMb: round(peakRssBytes(running.pid) / 2 ** 20) };
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
  const rows = runs.map(({ database, server, concurrency, median: m, windows }) => [
    database,
    SERVER_LABEL[server],
    String(concurrency),
    m.ceremoniesPerSecond.toFixed(0),
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
      "server",
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
    2,
  );
}

interface Comparison {
  database: DatabaseKind;
  throughputRatio: number;
  p99Ratio: number;
  throughputMet: boolean;
  p99Met: boolean;
}

function compare(runs: RunResult[]): Comparison[] {
  const concurrency = Math.max(...CONCURRENCIES);
  return DATABASES.flatMap((database) => {
    const at = (server: ServerKind) =>
      runs.find((r) => r.database === database && r.server === server && r.concurrency === concurrency)
        ?.median;
    const next = at("next");
    const floor = at("floor");
    if (!next || !floor) return [];
    const throughputRatio = round(next.ceremoniesPerSecond / floor.ceremoniesPerSecond, 3);
    const p99Ratio = round(next.latencyMs.p99 / floor.latencyMs.p99, 2);
    return [
      {
        database,
        throughputRatio,
        p99Ratio,
        throughputMet: throughputRatio >= TARGET_THROUGHPUT_RATIO,
        p99Met: p99Ratio <= TARGET_P99_RATIO,
      },
    ];
  });
}

function comparisonLines(comparisons: Comparison[]): string[] {
  const c = Math.max(...CONCURRENCIES);
  return comparisons.map(
    (x) =>
      `${x.database}: Next.js / floor at c=${c}: throughput ${(x.throughputRatio * 100).toFixed(1)} % ` +
      `(target ≥ ${TARGET_THROUGHPUT_RATIO * 100} %: ${x.throughputMet ? "met" : "MISSED"}), ` +
      `p99 ${x.p99Ratio.toFixed(2)}× (target ≤ ${TARGET_P99_RATIO}×: ${x.p99Met ? "met" : "MISSED"})`,
  );
}

function quietnessLines(runs: RunResult[]): string[] {
  const worst = Math.max(0, ...runs.flatMap((r) => r.windows.map((w) => w.otherCores)));
  if (worst <= NOISY_CORES) return [];
  return [
    `Warning: other processes used up to ${worst.toFixed(2)} cores during the runs ("other load"); ` +
      "rerun on a quiet machine before trusting these figures.",
  ];
}

/** Suffixes of bench/results/<date>.json: partial or quick runs get one so they never replace a full run. */
function resultsSuffixes(options: Options): string[] {
  return [
    options.quick ? "quick" : "",
    options.databases.length === 1 ? options.databases[0]! : "",
    options.servers.length === 1 ? options.servers[0]! : "",
  ];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  cleanupOnSignals();
  if (!buildIfNeeded(log)) throw new Error("next build failed");

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-"));
  onCleanup("temporary folder", () => fs.rmSync(workDir, { recursive: true, force: true }));
  const profileDir = options.cpuProf
    ? fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-prof-"))
    : undefined;

  const idleLoad = await machineLoad();
  if (idleLoad > NOISY_CORES)
    log(`Warning: the machine is busy before the benchmark (${idleLoad} cores in use).`);
  const startedAt = new Date();
  const runs: RunResult[] = [];
  const lifetimePeaks: Record<string, number> = {};
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
      for (const server of options.servers) {
        const result = await benchServer(options, database, server, workDir, pg, profileDir);
        runs.push(...result.runs);
        lifetimePeaks[`${database}/${server}`] = result.lifetimePeakRssMb;
      }
    } finally {
      await destroyPostgres();
    }
  }

  const comparisons = compare(runs);
  const report = [
    "",
    `Passkey login ceremonies (initialize + finalize over HTTP), ${options.windowMs / 1000} s per run` +
      (options.windows > 1 ? ` (median of ${options.windows} windows)` : "") +
      `, after ${options.warmupMs / 1000} s of warm-up; ${options.users} registered passkeys.`,
    "",
    tableOf(runs),
    "",
    ...comparisonLines(comparisons),
    ...quietnessLines(runs),
    "",
  ].join("\n");
  process.stdout.write(report);

  const results = {
    date: startedAt.toISOString(),
    machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
    settings: {
      quick: options.quick,
      users: options.users,
      concurrencies: CONCURRENCIES,
      warmupSeconds: options.warmupMs / 1000,
      windowSeconds: options.windowMs / 1000,
      windows: options.windows,
      signingAlgorithm: "RS256 (tenant default)",
      postgres: "throwaway cluster from scripts/lib/postgres.ts: fsync=off, synchronous_commit=off",
      client: "closed loop, node:http keep-alive, WebAuthnSoftwareAuthenticator (ES256), same machine",
    },
    targets: { throughputRatioAtLeast: TARGET_THROUGHPUT_RATIO, p99RatioAtMost: TARGET_P99_RATIO },
    comparisons,
    lifetimePeakRssMb: lifetimePeaks,
    runs,
  };
  const file = writeResults(resultsSuffixes(options), results);
  log(`Results written to ${file}`);
  if (profileDir) log(`CPU profiles (kept): ${profileDir}`);
}

main()
  .catch((error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`\nThe benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
