/**
 * `npm run bench`: passkey ceremonies per second, latency, server CPU, statements and memory of three
 * servers on the same client, store kind and machine (bench/README.md):
 *
 * - `sesame`: Sesame as `npm start` runs it (the whole process tree it leaves running is measured);
 * - `domain`: Sesame's domain functions on bare `node:http` (bench/domain-server.ts), the framework's price;
 * - `floor`: the independent floor (bench/independent-floor.ts), the minimal work with hand-written SQL.
 *
 * All three run at once, each with its own fresh store, and are measured in interleaved rounds
 * (A B C, C B A, …) so that drift cancels; the report shows medians over the rounds.
 *
 *   npm run bench                                   full run (≈ 15 minutes on 2 vCPUs)
 *   npm run bench -- --quick                        short rounds (≈ 5 minutes)
 *   npm run bench -- --only pglite                  one database (pglite | postgres)
 *   npm run bench -- --server sesame,floor          some servers (sesame | domain | floor; repeatable)
 *   npm run bench -- --scenario login               some scenarios (login | login-user-id | registration | flow-login | oidc-login | uaf-login)
 *   npm run bench -- --rounds 5                     rounds per scenario and concurrency
 *   npm run bench -- --cpu-prof                     V8 CPU profiles of the servers (kept in a temp folder)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort, startPostgres, type Postgres } from "@/scripts/lib/postgres";
import type { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./lib/cleanup";
import {
  benchUserId,
  closedLoop,
  HttpClient,
  loginCeremony,
  registerUsers,
  registrationCeremony,
  type Ceremony,
  type Target,
} from "./lib/client";
import { sampleWindow, summarize, type WindowResult, type WindowSamples } from "./lib/measure";
import { machineInfo, machineLoad, writeResults } from "./lib/meta";
import { peakRssBytes, processTree, RssMonitor } from "./lib/proc";
import {
  createTenant,
  floorEnv,
  sesameEnv,
  startServer,
  type BenchTenant,
  type RunningServer,
} from "./lib/servers";
import { formatTable, median, round } from "./lib/stats";
import { BenchHttp, type VirtualClient } from "./lib/ceremony-bench";
import { flowButtonLogin } from "./lib/flow-client";
import { oidcLogin, prepareOidcLogins, type OidcBench } from "./lib/oidc-client";
import { prepareUafDevices } from "./lib/uaf-client";

type DatabaseKind = "pglite" | "postgres";
type BenchServer = "sesame" | "domain" | "floor";
type Scenario = "login" | "login-user-id" | "registration" | "flow-login" | "oidc-login" | "uaf-login";

const DATABASES: DatabaseKind[] = ["pglite", "postgres"];
const SERVERS: BenchServer[] = ["sesame", "domain", "floor"];
/**
 * `flow-login`: Sesame's flow API login as hanko-elements sends it (issue 27: start, capabilities with
 * conditional mediation, the passkey button's request options, verify) against the floor's discoverable
 * Passkey API login; the domain server has no flow API and sits it out.
 * `oidc-login`: a relying party's authorization-code login with PKCE for a signed-in user (issue 30:
 * authorize → code → token → UserInfo, bench/lib/oidc-client.ts) against the same floor login; the domain
 * server sits it out too.
 * `uaf-login`: the UAF Authenticator API's AUTH round trip (issue 27: the relying party creates the
 * request and its app link, the phone app fetches and answers it, the relying party reads it OK;
 * bench/lib/uaf-client.ts, five requests) against the same floor login; the domain server sits it out.
 */
const SCENARIOS: Scenario[] = [
  "login",
  "login-user-id",
  "registration",
  "flow-login",
  "oidc-login",
  "uaf-login",
];
/** Scenarios only Sesame's whole server runs (the domain server has neither the flow API, OIDC nor UAF). */
const SESAME_ONLY: Scenario[] = ["flow-login", "oidc-login", "uaf-login"];
const CONCURRENCIES = [1, 16];
const HIGH = Math.max(...CONCURRENCIES);
const LOW = Math.min(...CONCURRENCIES);

/** Issue 17's goals, Sesame against the independent floor. */
const GOALS = {
  throughputRatioAtLeast: 0.6,
  cpuRatioAtMost: 1.7,
  p99RatioAtMost: 1.5,
  p50AtLowConcurrencyBelowMs: 8,
  peakRssAtMostMb: { pglite: 400, postgres: 250 } as Record<DatabaseKind, number>,
};
/** Issue 27's goals for the flow API login, against the floor's passkey login. */
const FLOW_GOALS = { throughputRatioAtLeast: 0.33, cpuRatioAtMost: 3, p99RatioAtMost: 3 };
/** Issue 30's goal for the authorization-code login: at most twice the floor's CPU per login. */
const OIDC_GOALS = { throughputRatioAtLeast: 0, cpuRatioAtMost: 2, p99RatioAtMost: Infinity };
/** Issue 27's goal for the UAF AUTH round trip: at most 3× the floor's CPU per passkey login. */
const UAF_GOALS = { throughputRatioAtLeast: 0, cpuRatioAtMost: 3, p99RatioAtMost: Infinity };
const goalsOf = (scenario: Scenario) =>
  scenario === "flow-login"
    ? { ...GOALS, ...FLOW_GOALS }
    : scenario === "uaf-login"
      ? { ...GOALS, ...UAF_GOALS }
      : scenario === "oidc-login"
        ? { ...GOALS, ...OIDC_GOALS }
        : GOALS;

/** Rounds whose "other load" (CPU of everything not measured) is above this many cores are flagged. */
const NOISY_CORES = 0.25;

interface Options {
  quick: boolean;
  databases: DatabaseKind[];
  servers: BenchServer[];
  scenarios: Scenario[];
  users: number;
  rounds: number;
  warmupMs: number;
  windowMs: number;
  cpuProf: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      server: { type: "string", multiple: true },
      scenario: { type: "string", multiple: true },
      users: { type: "string", default: "32" },
      rounds: { type: "string" },
      "cpu-prof": { type: "boolean", default: false },
    },
    strict: true,
  });
  /** Values of a flag (repeatable, or a comma list), in the canonical order; all when absent. */
  const pick = <T extends string>(given: string[] | undefined, all: T[], flag: string): T[] => {
    if (given === undefined) return all;
    const names = given.flatMap((value) => value.split(",")).map((value) => value.trim());
    for (const name of names) {
      if (!all.includes(name as T)) throw new Error(`--${flag} must be one of ${all.join(", ")}`);
    }
    return all.filter((name) => names.includes(name));
  };
  const users = Number(values.users);
  const rounds = Number(values.rounds ?? (values.quick ? 2 : 3));
  if (!Number.isInteger(users) || users < HIGH) throw new Error(`--users must be a whole number ≥ ${HIGH}`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number ≥ 1");
  return {
    quick: values.quick,
    databases: pick(values.only === undefined ? undefined : [values.only], DATABASES, "only"),
    servers: pick(values.server, SERVERS, "server"),
    scenarios: pick(values.scenario, SCENARIOS, "scenario"),
    users,
    rounds,
    warmupMs: values.quick ? 1_000 : 1_500,
    windowMs: values.quick ? 2_000 : 5_000,
    cpuProf: values["cpu-prof"],
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const LABEL: Record<BenchServer, string> = { sesame: "Sesame", domain: "domain", floor: "floor" };

/** One server under test, running. */
interface Contender {
  server: BenchServer;
  label: string;
  running: RunningServer;
  client: HttpClient;
  /** The flow API's client (it reads response headers: the session cookie). */
  http: BenchHttp;
  target: Target;
  tenant: BenchTenant;
  authenticators: WebAuthnSoftwareAuthenticator[];
  rss: RssMonitor;
  /** Its own database in the Postgres cluster. */
  databaseName: string | undefined;
  /** Registrations so far: every registration ceremony gets a fresh user id. */
  registrations: number;
  /** Sesame's OAuth client and signed-in users, when `oidc-login` runs. */
  oidc?: OidcBench;
  /** One UAF AUTH round trip per user (each a registered phone), when `uaf-login` runs. */
  uaf?: VirtualClient[];
}

/** One measured window of one server in one round. */
interface RoundResult {
  database: DatabaseKind;
  server: BenchServer;
  scenario: Scenario;
  concurrency: number;
  round: number;
  window: WindowResult;
  /** Statements the server's database ran per ceremony (pg_stat_statements; Postgres only). */
  statementsPerCeremony: number | null;
}

/** Medians over the rounds of one server, scenario and concurrency. */
interface Summary {
  database: DatabaseKind;
  server: BenchServer;
  scenario: Scenario;
  concurrency: number;
  rounds: number;
  ceremoniesPerSecond: number;
  range: [number, number];
  p50Ms: number;
  p99Ms: number;
  serverCpuMsPerCeremony: number;
  postgresCpuMsPerCeremony: number | null;
  /** Server + Postgres CPU per ceremony. */
  totalCpuMsPerCeremony: number;
  statementsPerCeremony: number | null;
  /** The highest peak over the rounds. */
  peakRssMb: number;
  otherCores: number;
  errors: number;
}

function postmasterPid(pg: Postgres): number {
  const first = fs.readFileSync(path.join(pg.dataDir, "postmaster.pid"), "utf8").split("\n")[0];
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("cannot read the postmaster's pid");
  return pid;
}

/**
 * Statement counts per bench database from pg_stat_statements, read over a connection to the
 * `postgres` database, so that the reading itself is never counted for a bench database.
 */
class StatementCounter {
  private readonly sql: postgres.Sql;

  constructor(pg: Postgres) {
    this.sql = postgres(pg.url("postgres"), { max: 1, onnotice: () => {} });
  }

  async install(databaseUrl: string): Promise<void> {
    await this.sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    // Also in the bench database itself, as a product's operator would have it.
    const bench = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await bench`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    } finally {
      await bench.end();
    }
  }

  async reset(database: string): Promise<void> {
    await this
      .sql`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = ${database}), 0)`;
  }

  async calls(database: string): Promise<number> {
    const [row] = await this.sql<{ calls: string | null }[]>`
      SELECT sum(calls)::text AS calls FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ${database})`;
    return Number(row?.calls ?? 0);
  }

  close(): Promise<void> {
    return this.sql.end();
  }
}

async function startContender(
  options: Options,
  database: DatabaseKind,
  server: BenchServer,
  workDir: string,
  pg: Postgres | undefined,
  counter: StatementCounter | undefined,
  profileDir: string | undefined,
): Promise<Contender> {
  const label = `${database} / ${LABEL[server]}`;
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dir = fs.mkdtempSync(path.join(workDir, `${database}-${server}-`));
  let databaseUrl: string | undefined;
  let databaseName: string | undefined;
  if (pg) {
    databaseName = `bench_${server}`;
    pg.createDatabase(databaseName);
    databaseUrl = pg.url(databaseName);
    await counter?.install(databaseUrl);
  }
  const base = sesameEnv(port, { dataDir: path.join(dir, "data"), databaseUrl });
  log(`${label}: starting on port ${port} …`);
  // One client on loopback plays every user: the per-IP limit of flow requests is lifted too. The UAF
  // scenario's software authenticator (surrogate attestation) is accepted only with test authenticators on.
  const uaf = server === "sesame" && options.scenarios.includes("uaf-login");
  const tenantArgs = [
    ...["--rate-limit", "flow=100000/1"],
    ...(uaf ? ["--uaf-test-authenticators", "true"] : []),
  ];
  const { env, tenant } =
    server === "floor"
      ? floorEnv(base, origin)
      : { env: base, tenant: createTenant(base, origin, "bench", tenantArgs) };
  const nodeArgs = profileDir
    ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profileDir, label.replace(/\W+/g, "-"))}`]
    : [];
  const running = await startServer(server, port, env, path.join(dir, "server.log"), nodeArgs);
  const client = new HttpClient("127.0.0.1", port);
  const target: Target = { client, tenantId: tenant.tenantId, origin };
  const started = performance.now();
  const authenticators = await registerUsers(target, tenant.passkeyApiKey, options.users);
  log(`${label}: registered ${options.users} passkeys in ${Math.round(performance.now() - started)} ms`);
  const http = new BenchHttp(port);
  const oidc =
    server === "sesame" && options.scenarios.includes("oidc-login")
      ? await prepareOidcLogins(http, tenant.tenantId, tenant.adminApiKey, options.users)
      : undefined;
  const uafClients = uaf
    ? (
        await prepareUafDevices({
          http,
          tenant: { ...tenant, authenticatorApiKey: tenant.authenticatorApiKey ?? "" },
          origin,
          users: options.users,
        })
      ).clients
    : undefined;
  return {
    oidc,
    uaf: uafClients,
    server,
    label,
    running,
    client,
    http,
    target,
    tenant,
    authenticators,
    rss: new RssMonitor(running.pid),
    databaseName,
    registrations: 0,
  };
}

function ceremonyOf(contender: Contender, scenario: Scenario): Ceremony {
  if (scenario === "uaf-login") {
    const uaf = contender.uaf;
    if (contender.server !== "sesame" || !uaf) return loginCeremony;
    const index = new Map(contender.authenticators.map((a, i) => [a, i]));
    return async (_target, authenticator) => {
      const { total, steps } = await uaf[index.get(authenticator)!]!();
      // The relying party's requests count as initialize, the phone's and the status read as finalize.
      const initialize = (steps.create ?? 0) + (steps.link ?? 0);
      return { initialize, sign: 0, finalize: total - initialize, total };
    };
  }
  if (scenario === "oidc-login") {
    const oidc = contender.oidc;
    if (contender.server !== "sesame" || !oidc) return loginCeremony;
    const index = new Map(contender.authenticators.map((a, i) => [a, i]));
    return (_target, authenticator) => oidcLogin(contender.http.port, oidc, index.get(authenticator)!);
  }
  if (scenario === "flow-login") {
    if (contender.server !== "sesame") return loginCeremony;
    return (target, authenticator) =>
      flowButtonLogin(contender.http, target.tenantId, target.origin, authenticator);
  }
  if (scenario === "login") return loginCeremony;
  const apiKey = contender.tenant.passkeyApiKey;
  if (scenario === "registration") {
    return (target) => registrationCeremony(target, apiKey, `reg-${contender.registrations++}`);
  }
  const userIds = new Map(contender.authenticators.map((a, i) => [a, benchUserId(i)]));
  return (target, authenticator) =>
    loginCeremony(target, authenticator, { userId: userIds.get(authenticator)!, apiKey });
}

/** One round of one server: a warm-up, then one window. */
async function measure(
  contender: Contender,
  scenario: Scenario,
  concurrency: number,
  warmupMs: number,
  windowMs: number,
  pgPid: number | undefined,
  counter: StatementCounter | undefined,
): Promise<{ window: WindowResult; statementsPerCeremony: number | null }> {
  let start: WindowSamples | undefined;
  let statements: number | null = null;
  const { kept } = await closedLoop(contender.target, contender.authenticators, {
    concurrency,
    ceremony: ceremonyOf(contender, scenario),
    warmupMs,
    windowMs,
    windows: 1,
    maxWindows: 1,
    onWindowStart: async () => {
      if (counter && contender.databaseName) await counter.reset(contender.databaseName);
      contender.rss.reset();
      start = sampleWindow(contender.running.pid, pgPid);
    },
    onWindowEnd: async (window) => {
      const result = summarize(
        window,
        start!,
        sampleWindow(contender.running.pid, pgPid),
        contender.rss.reset(),
      );
      if (counter && contender.databaseName) {
        const calls = await counter.calls(contender.databaseName);
        statements = result.ceremonies === 0 ? null : round(calls / result.ceremonies, 1);
      }
      return { result, keep: true };
    },
  });
  return { window: kept[0]!, statementsPerCeremony: statements };
}

async function benchDatabase(
  options: Options,
  database: DatabaseKind,
  workDir: string,
  profileDir: string | undefined,
): Promise<{ rounds: RoundResult[]; lifetimePeakRssMb: Record<string, number> }> {
  let pg: Postgres | undefined;
  let counter: StatementCounter | undefined;
  const contenders: Contender[] = [];
  const stops: (() => Promise<void>)[] = [];
  try {
    if (database === "postgres") {
      log("Starting a throwaway Postgres 15 cluster (with pg_stat_statements) …");
      const cluster = await startPostgres({ shared_preload_libraries: "pg_stat_statements" });
      pg = cluster;
      stops.push(onCleanup("Postgres cluster", () => cluster.destroy()));
      counter = new StatementCounter(cluster);
      const statementCounter = counter;
      stops.push(onCleanup("statement counter", () => statementCounter.close()));
    }
    for (const server of options.servers) {
      const contender = await startContender(options, database, server, workDir, pg, counter, profileDir);
      contenders.push(contender);
      stops.push(async () => {
        contender.rss.stop();
        contender.client.close();
        contender.http.close();
        await contender.running.stop();
      });
    }
    const pgPid = pg ? postmasterPid(pg) : undefined;

    // JIT and caches warm before the first round, so that round 1 does not favour the later servers.
    for (const contender of contenders) {
      await measure(contender, "login", HIGH, options.warmupMs * 2, options.windowMs, pgPid, undefined);
    }

    const rounds: RoundResult[] = [];
    for (const scenario of options.scenarios) {
      for (const concurrency of CONCURRENCIES) {
        for (let round = 0; round < options.rounds; round++) {
          // A B C, then C B A, …: a drift over time weighs on every server alike.
          const order = round % 2 === 0 ? contenders : [...contenders].reverse();
          for (const contender of order) {
            if (SESAME_ONLY.includes(scenario) && contender.server === "domain") continue;
            const { window, statementsPerCeremony } = await measure(
              contender,
              scenario,
              concurrency,
              options.warmupMs,
              options.windowMs,
              pgPid,
              counter,
            );
            rounds.push({
              database,
              server: contender.server,
              scenario,
              concurrency,
              round,
              window,
              statementsPerCeremony,
            });
            log(
              `${contender.label}, ${scenario}, c=${concurrency}, round ${round + 1}: ` +
                `${window.ceremoniesPerSecond}/s, p50 ${window.latencyMs.p50} ms, p99 ${window.latencyMs.p99} ms, ` +
                `${window.serverCpuMsPerCeremony}` +
                (window.postgresCpuMsPerCeremony === null ? "" : ` + ${window.postgresCpuMsPerCeremony}`) +
                ` ms CPU` +
                (statementsPerCeremony === null ? "" : `, ${statementsPerCeremony} statements`) +
                ` per ceremony, other load ${window.otherCores}`,
            );
          }
        }
      }
    }
    const lifetimePeakRssMb = Object.fromEntries(
      contenders.map((c) => [
        `${database}/${c.server}`,
        // Summed over the tree: for Sesame, npm and the server.
        round(processTree(c.running.pid).reduce((sum, pid) => sum + peakRssBytes(pid), 0) / 2 ** 20),
      ]),
    );
    return { rounds, lifetimePeakRssMb };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

function summarizeRounds(rounds: RoundResult[]): Summary[] {
  const groups = new Map<string, RoundResult[]>();
  for (const r of rounds) {
    const key = [r.database, r.scenario, r.server, r.concurrency].join("|");
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((group) => {
    const { database, server, scenario, concurrency } = group[0]!;
    const windows = group.map((r) => r.window);
    const of = (pick: (w: WindowResult) => number) => median(windows.map(pick));
    const postgresCpu = windows.every((w) => w.postgresCpuMsPerCeremony !== null)
      ? round(
          of((w) => w.postgresCpuMsPerCeremony!),
          2,
        )
      : null;
    const statements = group.every((r) => r.statementsPerCeremony !== null)
      ? round(median(group.map((r) => r.statementsPerCeremony!)), 1)
      : null;
    const rates = windows.map((w) => w.ceremoniesPerSecond);
    return {
      database,
      server,
      scenario,
      concurrency,
      rounds: group.length,
      ceremoniesPerSecond: round(of((w) => w.ceremoniesPerSecond)),
      range: [Math.min(...rates), Math.max(...rates)],
      p50Ms: round(
        of((w) => w.latencyMs.p50),
        2,
      ),
      p99Ms: round(
        of((w) => w.latencyMs.p99),
        2,
      ),
      serverCpuMsPerCeremony: round(
        of((w) => w.serverCpuMsPerCeremony),
        2,
      ),
      postgresCpuMsPerCeremony: postgresCpu,
      totalCpuMsPerCeremony: round(
        of((w) => w.serverCpuMsPerCeremony + (w.postgresCpuMsPerCeremony ?? 0)),
        2,
      ),
      statementsPerCeremony: statements,
      peakRssMb: Math.max(...windows.map((w) => w.peakRssMb)),
      otherCores: round(
        of((w) => w.otherCores),
        2,
      ),
      errors: windows.reduce((sum, w) => sum + w.errors, 0),
    };
  });
}

function tableOf(summaries: Summary[]): string {
  const rows = summaries.map((s) => [
    s.database,
    s.scenario,
    LABEL[s.server],
    String(s.concurrency),
    s.ceremoniesPerSecond.toFixed(0),
    s.rounds > 1 ? `${s.range[0].toFixed(0)}–${s.range[1].toFixed(0)}` : "-",
    s.p50Ms.toFixed(1),
    s.p99Ms.toFixed(1),
    s.serverCpuMsPerCeremony.toFixed(2),
    s.postgresCpuMsPerCeremony === null ? "-" : s.postgresCpuMsPerCeremony.toFixed(2),
    s.statementsPerCeremony === null ? "-" : s.statementsPerCeremony.toFixed(1),
    s.peakRssMb.toFixed(0),
    s.otherCores.toFixed(2),
    String(s.errors),
  ]);
  return formatTable(
    [
      "database",
      "scenario",
      "server",
      "c",
      "cer./s",
      "(rounds)",
      "p50 ms",
      "p99 ms",
      "server CPU ms/cer.",
      "+Postgres CPU",
      "statements/cer.",
      "peak RSS MB",
      "other load",
      "errors",
    ],
    rows,
    3,
  );
}

interface Comparison {
  database: DatabaseKind;
  scenario: Scenario;
  against: "floor" | "domain";
  /** Sesame ÷ the other server; throughput at c=16, CPU per ceremony at c=16 (server + Postgres). */
  throughputRatio: number;
  cpuRatio: number;
  p99Ratio: number;
  p50LowRatio: number;
  peakRssRatio: number;
  /** Only against the floor: issue 17's goals. */
  goals?: {
    throughput: boolean;
    cpu: boolean;
    p99: boolean;
    p50Low: { sesameMs: number; met: boolean };
    peakRss: { sesameMb: number; limitMb: number; met: boolean };
  };
}

function compare(summaries: Summary[]): Comparison[] {
  const find = (database: DatabaseKind, scenario: Scenario, server: BenchServer, concurrency: number) =>
    summaries.find(
      (s) =>
        s.database === database &&
        s.scenario === scenario &&
        s.server === server &&
        s.concurrency === concurrency,
    );
  const peakRss = (database: DatabaseKind, scenario: Scenario, server: BenchServer) =>
    Math.max(...CONCURRENCIES.map((c) => find(database, scenario, server, c)?.peakRssMb ?? 0));
  return DATABASES.flatMap((database) =>
    SCENARIOS.flatMap((scenario) =>
      (["floor", "domain"] as const).flatMap((against): Comparison[] => {
        const [sHigh, sLow, oHigh, oLow] = [
          find(database, scenario, "sesame", HIGH),
          find(database, scenario, "sesame", LOW),
          find(database, scenario, against, HIGH),
          find(database, scenario, against, LOW),
        ];
        if (!sHigh || !sLow || !oHigh || !oLow) return [];
        const ratio = (a: number, b: number, digits = 2) => (b === 0 ? 0 : round(a / b, digits));
        const comparison: Comparison = {
          database,
          scenario,
          against,
          throughputRatio: ratio(sHigh.ceremoniesPerSecond, oHigh.ceremoniesPerSecond, 3),
          cpuRatio: ratio(sHigh.totalCpuMsPerCeremony, oHigh.totalCpuMsPerCeremony),
          p99Ratio: ratio(sHigh.p99Ms, oHigh.p99Ms),
          p50LowRatio: ratio(sLow.p50Ms, oLow.p50Ms),
          peakRssRatio: ratio(peakRss(database, scenario, "sesame"), peakRss(database, scenario, against)),
        };
        if (against === "floor") {
          const sesameMb = peakRss(database, scenario, "sesame");
          const limitMb = GOALS.peakRssAtMostMb[database];
          const goals = goalsOf(scenario);
          comparison.goals = {
            throughput: comparison.throughputRatio >= goals.throughputRatioAtLeast,
            cpu: comparison.cpuRatio <= goals.cpuRatioAtMost,
            p99: comparison.p99Ratio <= goals.p99RatioAtMost,
            p50Low: { sesameMs: sLow.p50Ms, met: sLow.p50Ms < GOALS.p50AtLowConcurrencyBelowMs },
            peakRss: { sesameMb, limitMb, met: sesameMb <= limitMb },
          };
        }
        return [comparison];
      }),
    ),
  );
}

function comparisonTable(comparisons: Comparison[]): string {
  const mark = (met: boolean | undefined) => (met === undefined ? "" : met ? " met" : " MISSED");
  const rows = comparisons.map((c) => [
    c.database,
    c.scenario,
    `Sesame ÷ ${c.against}`,
    `${(c.throughputRatio * 100).toFixed(0)} %${mark(c.goals?.throughput)}`,
    `${c.cpuRatio.toFixed(2)}×${mark(c.goals?.cpu)}`,
    `${c.p99Ratio.toFixed(2)}×${mark(c.goals?.p99)}`,
    `${c.p50LowRatio.toFixed(2)}×` +
      (c.goals ? ` (${c.goals.p50Low.sesameMs.toFixed(1)} ms${mark(c.goals.p50Low.met)})` : ""),
    `${c.peakRssRatio.toFixed(2)}×` +
      (c.goals ? ` (${c.goals.peakRss.sesameMb.toFixed(0)} MB${mark(c.goals.peakRss.met)})` : ""),
  ]);
  return formatTable(
    [
      "database",
      "scenario",
      "ratio",
      `throughput c=${HIGH}`,
      `CPU/cer. c=${HIGH}`,
      `p99 c=${HIGH}`,
      `p50 c=${LOW}`,
      "peak RSS",
    ],
    rows,
    8,
  );
}

function goalLines(): string[] {
  return [
    `Goals (Sesame ÷ floor): throughput ≥ ${GOALS.throughputRatioAtLeast * 100} %, CPU per ceremony ≤ ` +
      `${GOALS.cpuRatioAtMost}× (server + Postgres), p99 ≤ ${GOALS.p99RatioAtMost}×, Sesame's p50 at ` +
      `c=${LOW} < ${GOALS.p50AtLowConcurrencyBelowMs} ms, Sesame's peak RSS ≤ ${GOALS.peakRssAtMostMb.pglite} MB ` +
      `(PGlite) / ${GOALS.peakRssAtMostMb.postgres} MB (Postgres, without the cluster).`,
  ];
}

function quietnessLines(rounds: RoundResult[]): string[] {
  const noisy = rounds.filter((r) => r.window.otherCores > NOISY_CORES);
  if (noisy.length === 0) return [];
  const worst = Math.max(...noisy.map((r) => r.window.otherCores));
  return [
    `Warning: in ${noisy.length} of ${rounds.length} rounds other processes used more than ${NOISY_CORES} ` +
      `cores (up to ${worst.toFixed(2)}, "other load"); rerun on a quiet machine before trusting these figures.`,
  ];
}

/** Suffixes of bench/results/<date>.json: partial or quick runs get one so they never replace a full run. */
function resultsSuffixes(options: Options): string[] {
  return [
    options.quick ? "quick" : "",
    options.databases.length === 1 ? options.databases[0]! : "",
    options.servers.length < SERVERS.length ? options.servers.join("-") : "",
    options.scenarios.length < SCENARIOS.length ? options.scenarios.join("-") : "",
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
  const rounds: RoundResult[] = [];
  const lifetimePeaks: Record<string, number> = {};
  for (const database of options.databases) {
    const result = await benchDatabase(options, database, workDir, profileDir);
    rounds.push(...result.rounds);
    Object.assign(lifetimePeaks, result.lifetimePeakRssMb);
  }

  const summaries = summarizeRounds(rounds);
  const comparisons = compare(summaries);
  const report = [
    "",
    `Passkey ceremonies over HTTP (initialize + finalize): medians over ${options.rounds} interleaved ` +
      `round(s) of ${options.windowMs / 1000} s after ${options.warmupMs / 1000} s of warm-up; ` +
      `${options.users} registered passkeys. Sesame = npm start (its whole process tree), domain = ` +
      "Sesame's domain functions on node:http, floor = the independent floor.",
    "",
    tableOf(summaries),
    "",
    comparisons.length > 0
      ? comparisonTable(comparisons)
      : "(no Sesame ÷ floor or domain: a server is missing)",
    "",
    ...goalLines(),
    ...quietnessLines(rounds),
    "",
  ].join("\n");
  process.stdout.write(report);

  const results = {
    date: startedAt.toISOString(),
    machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
    settings: {
      quick: options.quick,
      users: options.users,
      servers: options.servers,
      scenarios: options.scenarios,
      concurrencies: CONCURRENCIES,
      rounds: options.rounds,
      warmupSeconds: options.warmupMs / 1000,
      windowSeconds: options.windowMs / 1000,
      signingAlgorithm: "RS256 (Sesame's tenant default; the floor's key)",
      postgres:
        "throwaway cluster from scripts/lib/postgres.ts: fsync=off, synchronous_commit=off, " +
        "shared_preload_libraries=pg_stat_statements; one database per server",
      client: "closed loop, node:http keep-alive, WebAuthnSoftwareAuthenticator (ES256), same machine",
    },
    goals: GOALS,
    comparisons,
    summaries,
    lifetimePeakRssMb: lifetimePeaks,
    rounds,
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
