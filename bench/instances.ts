/**
 * `npm run bench:instances`: do two Sesame instances on one Postgres serve more logins than one? One
 * throwaway Postgres 15, two servers (scripts/server.mjs, what `npm start` runs) on two ports with the
 * same DATABASE_URL and base URL, one tenant made by the CLI, 32 users registered over HTTP. Rounds
 * interleaved (1, 2, 2, 1 by default): "1" is a closed loop of 16 discoverable logins against one
 * instance, "2" is 32 split over both, each virtual client bound to one instance, and half of them
 * finalizing on the other instance than the one that issued the challenge (so no ceremony state can
 * sit in a server's memory). See bench/README.md.
 *
 *   npm run bench:instances                     rounds 1,2,2,1 of 8 s after 4 s of warm-up
 *   npm run bench:instances -- --quick          3 s windows after 1.5 s
 *   npm run bench:instances -- --rounds 1,2,2,1,1,2,2,1
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort, startPostgres, type Postgres } from "@/scripts/lib/postgres";
import type {
  AuthenticationOptionsLike,
  WebAuthnSoftwareAuthenticator,
} from "@/tests/helpers/webauthn-software-authenticator";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./lib/cleanup";
import {
  closedLoop,
  expectOk,
  HttpClient,
  registerUsers,
  type Ceremony,
  type CeremonyTiming,
  type Target,
  type Window,
} from "./lib/client";
import { machineInfo, machineLoad, writeResults } from "./lib/meta";
import { cpuSecondsBetween, machineBusySeconds, sampleCpu, type CpuSample } from "./lib/proc";
import { createTenant, sesameEnv, startServer, type RunningServer } from "./lib/servers";
import { formatTable, mean, percentile, round } from "./lib/stats";

const ONE_CONCURRENCY = 16;
const TWO_CONCURRENCY = 32;
const TARGET_RATIO = 1.7;
const NOISY_CORES = 0.25;
const DATABASE = "bench_instances";

type RoundKind = 1 | 2;

interface Options {
  quick: boolean;
  rounds: RoundKind[];
  warmupMs: number;
  windowMs: number;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      rounds: { type: "string", default: "1,2,2,1" },
    },
    strict: true,
  });
  const rounds = values.rounds.split(",").map((r) => Number(r.trim()));
  if (rounds.some((r) => r !== 1 && r !== 2) || !rounds.includes(1) || !rounds.includes(2)) {
    throw new Error("--rounds is a list of 1 and 2 (one or two instances) with both, like 1,2,2,1");
  }
  return {
    quick: values.quick,
    rounds: rounds as RoundKind[],
    warmupMs: values.quick ? 1_500 : 4_000,
    windowMs: values.quick ? 3_000 : 8_000,
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

function postmasterPid(pg: Postgres): number {
  const first = fs.readFileSync(path.join(pg.dataDir, "postmaster.pid"), "utf8").split("\n")[0];
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("cannot read the postmaster's pid");
  return pid;
}

/** Where one virtual client sends its initialize and its finalize. */
interface Route {
  initialize: Target;
  finalize: Target;
}

/**
 * The discoverable login of bench/lib/client.ts `loginCeremony`, with initialize and finalize possibly
 * on different instances. The route is the client's (looked up by its authenticator), not the target.
 */
function routedCeremony(routes: Map<WebAuthnSoftwareAuthenticator, Route>): Ceremony {
  return async (_target, authenticator): Promise<CeremonyTiming> => {
    const route = routes.get(authenticator)!;
    const t0 = performance.now();
    const init = await expectOk(
      route.initialize.client.request("POST", `/passkey/${route.initialize.tenantId}/login/initialize`),
      "login/initialize",
    );
    const t1 = performance.now();
    const assertion = await authenticator.login(init.publicKey as AuthenticationOptionsLike, {
      origin: route.initialize.origin,
    });
    const t2 = performance.now();
    const result = await expectOk(
      route.finalize.client.request("POST", `/passkey/${route.finalize.tenantId}/login/finalize`, assertion),
      "login/finalize",
    );
    const t3 = performance.now();
    if (typeof result.token !== "string") throw new Error("login/finalize returned no token");
    return { initialize: t1 - t0, sign: t2 - t1, finalize: t3 - t2, total: t3 - t0 };
  };
}

interface Samples {
  a: CpuSample;
  b: CpuSample;
  postgres: CpuSample;
  client: NodeJS.CpuUsage;
  machine: number;
}

/** Cores used by each party in a window (1.0 = one core busy). */
interface Cores {
  serverA: number;
  serverB: number;
  postgres: number;
  client: number;
  other: number;
  machine: number;
}

interface RoundResult {
  round: number;
  instances: RoundKind;
  concurrency: number;
  seconds: number;
  logins: number;
  errors: number;
  loginsPerSecond: number;
  latencyMs: { p50: number; p99: number; mean: number };
  cores: Cores;
  /** CPU per login, ms: both servers, and Postgres. */
  serverCpuMsPerLogin: number;
  postgresCpuMsPerLogin: number;
  /** Logins per CPU-second of the Sesame servers (both together), and of servers plus Postgres. */
  loginsPerServerCpuSecond: number;
  loginsPerServerAndPostgresCpuSecond: number;
  /** Windows run again because other processes were busy. */
  discardedWindows: number;
}

function summarize(
  round_: number,
  instances: RoundKind,
  concurrency: number,
  window: Window,
  start: Samples,
  end: Samples,
): RoundResult {
  const seconds = (window.endedAt - window.startedAt) / 1000;
  const n = window.timings.length;
  const total = window.timings.map((t) => t.total).sort((x, y) => x - y);
  const a = cpuSecondsBetween(start.a, end.a);
  const b = cpuSecondsBetween(start.b, end.b);
  const pg = cpuSecondsBetween(start.postgres, end.postgres);
  const client = (end.client.user - start.client.user + end.client.system - start.client.system) / 1_000_000;
  const machine = end.machine - start.machine;
  const perLogin = (cpu: number) => (n === 0 ? 0 : round((cpu * 1000) / n, 2));
  return {
    round: round_,
    instances,
    concurrency,
    seconds: round(seconds, 2),
    logins: n,
    errors: window.errors,
    loginsPerSecond: round(n / seconds),
    latencyMs: {
      p50: round(percentile(total, 50), 2),
      p99: round(percentile(total, 99), 2),
      mean: round(mean(total), 2),
    },
    cores: {
      serverA: round(a / seconds, 2),
      serverB: round(b / seconds, 2),
      postgres: round(pg / seconds, 2),
      client: round(client / seconds, 2),
      other: round(Math.max(0, machine - a - b - pg - client) / seconds, 2),
      machine: round(machine / seconds, 2),
    },
    serverCpuMsPerLogin: perLogin(a + b),
    postgresCpuMsPerLogin: perLogin(pg),
    loginsPerServerCpuSecond: a + b === 0 ? 0 : round(n / (a + b)),
    loginsPerServerAndPostgresCpuSecond: a + b + pg === 0 ? 0 : round(n / (a + b + pg)),
    discardedWindows: 0,
  };
}

function roundsTable(rounds: RoundResult[]): string {
  return formatTable(
    [
      "round",
      "instances",
      "c",
      "logins/s",
      "p50 ms",
      "p99 ms",
      "cores: server A",
      "server B",
      "Postgres",
      "client",
      "other",
      "machine (of 2)",
      "server CPU ms/login",
      "Postgres ms/login",
      "logins per server CPU-s",
      "errors",
    ],
    rounds.map((r) => [
      String(r.round),
      String(r.instances),
      String(r.concurrency),
      r.loginsPerSecond.toFixed(0),
      r.latencyMs.p50.toFixed(1),
      r.latencyMs.p99.toFixed(1),
      r.cores.serverA.toFixed(2),
      r.cores.serverB.toFixed(2),
      r.cores.postgres.toFixed(2),
      r.cores.client.toFixed(2),
      r.cores.other.toFixed(2),
      r.cores.machine.toFixed(2),
      r.serverCpuMsPerLogin.toFixed(2),
      r.postgresCpuMsPerLogin.toFixed(2),
      r.loginsPerServerCpuSecond.toFixed(0),
      String(r.errors),
    ]),
    1,
  );
}

/** Means over the rounds of one kind. */
function meansOf(rounds: RoundResult[], kind: RoundKind) {
  const of = rounds.filter((r) => r.instances === kind);
  const m = (pick: (r: RoundResult) => number) => round(mean(of.map(pick)), 2);
  return {
    instances: kind,
    rounds: of.length,
    loginsPerSecond: m((r) => r.loginsPerSecond),
    p50Ms: m((r) => r.latencyMs.p50),
    p99Ms: m((r) => r.latencyMs.p99),
    cores: {
      serverA: m((r) => r.cores.serverA),
      serverB: m((r) => r.cores.serverB),
      postgres: m((r) => r.cores.postgres),
      client: m((r) => r.cores.client),
      other: m((r) => r.cores.other),
      machine: m((r) => r.cores.machine),
    },
    serverCpuMsPerLogin: m((r) => r.serverCpuMsPerLogin),
    postgresCpuMsPerLogin: m((r) => r.postgresCpuMsPerLogin),
    loginsPerServerCpuSecond: m((r) => r.loginsPerServerCpuSecond),
    errors: of.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  cleanupOnSignals();
  if (!buildIfNeeded(log)) throw new Error("next build failed");
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-instances-"));
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

  const [portA, portB] = [await freePort(), await freePort()];
  const origin = `http://localhost:${portA}`;
  const envA = sesameEnv(portA, { dataDir: path.join(workDir, "a"), databaseUrl: url });
  // Two instances of one deployment: same database, same public base URL, each its own port.
  const envB = {
    ...sesameEnv(portB, { dataDir: path.join(workDir, "b"), databaseUrl: url }),
    SESAME_BASE_URL: envA.SESAME_BASE_URL,
  };
  const tenant = createTenant(envA, origin);
  log(`Starting two servers on ports ${portA} and ${portB} …`);
  const serverA: RunningServer = await startServer("next", portA, envA, path.join(workDir, "a.log"));
  const serverB: RunningServer = await startServer("next", portB, envB, path.join(workDir, "b.log"));
  const clientA = new HttpClient("127.0.0.1", portA);
  const clientB = new HttpClient("127.0.0.1", portB);
  onCleanup("HTTP clients", () => {
    clientA.close();
    clientB.close();
  });
  const targetA: Target = { client: clientA, tenantId: tenant.tenantId, origin };
  const targetB: Target = { client: clientB, tenantId: tenant.tenantId, origin };

  const authenticators = await registerUsers(targetA, tenant.passkeyApiKey, TWO_CONCURRENCY);
  // Client i is bound to A (even) or B (odd); every other pair finalizes on the other instance.
  const routes = new Map<WebAuthnSoftwareAuthenticator, Route>();
  authenticators.forEach((authenticator, i) => {
    const home = i % 2 === 0 ? targetA : targetB;
    const away = home === targetA ? targetB : targetA;
    const crossing = Math.floor(i / 2) % 2 === 1;
    routes.set(authenticator, { initialize: home, finalize: crossing ? away : home });
  });
  const split = routedCeremony(routes);

  const sample = (): Samples => ({
    a: sampleCpu(serverA.pid),
    b: sampleCpu(serverB.pid),
    postgres: sampleCpu(pgPid),
    client: process.cpuUsage(),
    machine: machineBusySeconds(),
  });

  const rounds: RoundResult[] = [];
  for (const [i, kind] of options.rounds.entries()) {
    const concurrency = kind === 1 ? ONE_CONCURRENCY : TWO_CONCURRENCY;
    let start: Samples | undefined;
    const { kept, rejected } = await closedLoop(targetA, authenticators, {
      concurrency,
      ceremony: kind === 1 ? undefined : split,
      warmupMs: options.warmupMs,
      windowMs: options.windowMs,
      windows: 1,
      maxWindows: 3,
      onWindowStart: () => {
        start = sample();
      },
      onWindowEnd: (window) => {
        const result = summarize(i + 1, kind, concurrency, window, start!, sample());
        return { result, keep: result.cores.other <= NOISY_CORES };
      },
    });
    const result = { ...kept[0]!, discardedWindows: rejected.length };
    rounds.push(result);
    log(
      `round ${i + 1} (${kind} instance${kind === 1 ? "" : "s"}, c=${concurrency}): ${result.loginsPerSecond}/s, ` +
        `p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, machine ${result.cores.machine} cores` +
        (rejected.length > 0 ? ` (${rejected.length} window(s) discarded: busy machine)` : ""),
    );
  }
  await serverB.stop();
  await serverA.stop();

  const one = meansOf(rounds, 1);
  const two = meansOf(rounds, 2);
  const ratio = round(two.loginsPerSecond / one.loginsPerSecond, 2);
  const perCpuRatio = round(two.loginsPerServerCpuSecond / one.loginsPerServerCpuSecond, 2);
  const saturated = two.cores.machine >= 1.8;
  const summary = formatTable(
    [
      "instances",
      "rounds",
      "logins/s",
      "p50 ms",
      "p99 ms",
      "server A cores",
      "server B cores",
      "Postgres cores",
      "client cores",
      "other",
      "machine (of 2)",
      "logins per server CPU-s",
      "errors",
    ],
    [one, two].map((s) => [
      String(s.instances),
      String(s.rounds),
      s.loginsPerSecond.toFixed(1),
      s.p50Ms.toFixed(1),
      s.p99Ms.toFixed(1),
      s.cores.serverA.toFixed(2),
      s.cores.serverB.toFixed(2),
      s.cores.postgres.toFixed(2),
      s.cores.client.toFixed(2),
      s.cores.other.toFixed(2),
      s.cores.machine.toFixed(2),
      s.loginsPerServerCpuSecond.toFixed(0),
      String(s.errors),
    ]),
    1,
  );
  process.stdout.write(
    [
      "",
      `Discoverable passkey logins on Postgres 15: one instance at c=${ONE_CONCURRENCY}, two at c=${TWO_CONCURRENCY} ` +
        `(half the clients finalize on the other instance); ${options.windowMs / 1000} s per round after ` +
        `${options.warmupMs / 1000} s of warm-up, rounds ${options.rounds.join(", ")}.`,
      "",
      roundsTable(rounds),
      "",
      "Means per kind:",
      summary,
      "",
      `two ÷ one: throughput ${ratio}× (goal ≥ ${TARGET_RATIO}× until Postgres saturates: ` +
        `${ratio >= TARGET_RATIO ? "met" : "MISSED"}), logins per server CPU-second ${perCpuRatio}×`,
      saturated
        ? `The machine was saturated with two instances (${two.cores.machine} of ${os.cpus().length} cores busy): ` +
          "the ratio measures the cores, not Sesame; the per-CPU-second figure is the one that carries over."
        : `The machine had spare CPU with two instances (${two.cores.machine} of ${os.cpus().length} cores busy).`,
      "",
    ].join("\n"),
  );

  const file = writeResults([options.quick ? "instances-quick" : "instances"], {
    date: startedAt.toISOString(),
    machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
    settings: {
      quick: options.quick,
      rounds: options.rounds,
      warmupSeconds: options.warmupMs / 1000,
      windowSeconds: options.windowMs / 1000,
      concurrency: { one: ONE_CONCURRENCY, two: TWO_CONCURRENCY },
      routing:
        "two instances: client i on A (even) or B (odd); clients with floor(i/2) odd finalize on the other instance",
      postgres: "throwaway cluster from scripts/lib/postgres.ts: fsync=off, synchronous_commit=off",
    },
    target: { ratioAtLeast: TARGET_RATIO },
    ratio,
    perServerCpuSecondRatio: perCpuRatio,
    means: { one, two },
    rounds,
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
