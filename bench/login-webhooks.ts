/**
 * `npm run bench:webhooks`: what webhooks cost a login. The public API's WebAuthn login (it starts a
 * platform session, so it emits `session.create.flow` through the outbox in the session's transaction)
 * on Sesame's server (scripts/server.mjs, PGlite), for two tenants of the same server: A without
 * webhooks, B with 3 endpoints subscribed to `user` and `session` on a local receiver. Rounds alternate
 * A B, B A, … so drift cancels; after each B round the benchmark waits until the receiver has every
 * delivery, so a backlog never spills into the next round. See bench/README.md.
 *
 *   npm run bench:webhooks                full run: 4 pairs of rounds, 8 s windows
 *   npm run bench:webhooks -- --quick     2 pairs of rounds, 3 s windows
 *   npm run bench:webhooks -- --pairs 6   pairs of rounds (A B, then B A, …)
 *   npm run bench:webhooks -- --session-limit 100   (the maximum) no evictions in a quick run: one event per login
 *   npm run bench:webhooks -- --cpu-prof   a V8 CPU profile of the server (kept in a temp folder)
 *   npm run bench:webhooks -- --signing-algorithm ES256   the tenant's key (sessions and webhook tokens)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfNeeded } from "@/scripts/lib/build";
import { freePort } from "@/scripts/lib/postgres";
import type { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { cleanupAll, cleanupOnSignals, interrupted, onCleanup } from "./lib/cleanup";
import { closedLoop, HttpClient, type Target } from "./lib/client";
import { sampleWindow, summarize, type WindowResult, type WindowSamples } from "./lib/measure";
import { machineInfo, machineLoad, writeResults } from "./lib/meta";
import { createWebhook, publicLoginCeremony, seedPlatformUsers } from "./lib/platform";
import { cpuSecondsBetween, RssMonitor } from "./lib/proc";
import { WebhookReceiver } from "./lib/receiver";
import { createTenant, sesameEnv, startServer } from "./lib/servers";
import { formatTable, mean, round } from "./lib/stats";

const CONCURRENCY = 16;
const ENDPOINTS = 3;
const EVENTS = ["user", "session"];
/**
 * The tenant default (as Hanko's): once a user has this many sessions, each login evicts the oldest one,
 * which emits `session.delete.passive.limit` too (two events per login). `--session-limit 100` (the maximum)
 * avoids evictions (one event per login; the user's session rows then grow through the run).
 */
const DEFAULT_SESSION_LIMIT = 5;
const ALGORITHMS = ["RS256", "ES256", "EdDSA"];
/** Goal of issue 15: logins with webhooks at most 5 % slower. */
const TARGET_RATIO = 0.95;
const DRAIN_TIMEOUT_MS = 300_000;

type Variant = "without" | "with";
const LABEL: Record<Variant, string> = { without: "no webhooks", with: `${ENDPOINTS} webhooks` };

interface Options {
  quick: boolean;
  pairs: number;
  users: number;
  warmupMs: number;
  windowMs: number;
  sessionLimit: number;
  signingAlgorithm: string;
  cpuProf: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      pairs: { type: "string" },
      users: { type: "string", default: String(CONCURRENCY) },
      "session-limit": { type: "string", default: String(DEFAULT_SESSION_LIMIT) },
      "signing-algorithm": { type: "string", default: "RS256" },
      "cpu-prof": { type: "boolean", default: false },
    },
    strict: true,
  });
  const pairs = Number(values.pairs ?? (values.quick ? 2 : 4));
  const users = Number(values.users);
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error("--pairs must be a whole number ≥ 1");
  if (!Number.isInteger(users) || users < CONCURRENCY) throw new Error(`--users must be ≥ ${CONCURRENCY}`);
  const sessionLimit = Number(values["session-limit"]);
  if (!Number.isInteger(sessionLimit) || sessionLimit < 1) throw new Error("--session-limit must be ≥ 1");
  const signingAlgorithm = values["signing-algorithm"];
  if (!ALGORITHMS.includes(signingAlgorithm))
    throw new Error(`--signing-algorithm: ${ALGORITHMS.join(", ")}`);
  return {
    quick: values.quick,
    pairs,
    users,
    warmupMs: values.quick ? 1_000 : 2_000,
    windowMs: values.quick ? 3_000 : 8_000,
    sessionLimit,
    signingAlgorithm,
    cpuProf: values["cpu-prof"],
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One round: a warm-up, one window, and for B the wait until every delivery arrived. */
interface Round {
  round: number;
  variant: Variant;
  window: WindowResult;
  /** Logins of the whole round (warm-up, window, the in-flight ones at the end). */
  logins: number;
  /** Server CPU from the round's start until its deliveries were all received, ÷ `logins`. */
  allInServerCpuMsPerLogin: number;
  /** Deliveries sent for this tenant but not yet received when the window closed. */
  backlogAtWindowEnd: number;
  /** From the end of the load until the receiver had every delivery, s (0 without webhooks). */
  drainSeconds: number;
}

/** Logins per user of one tenant, and the webhook deliveries they must cause per endpoint. */
class LoginCounter {
  constructor(private readonly sessionLimit: number) {}
  private readonly perUser = new Map<string, number>();
  total = 0;

  add = (userId: string) => {
    this.perUser.set(userId, (this.perUser.get(userId) ?? 0) + 1);
    this.total++;
  };

  /** `session.delete.passive.limit` events: each user starts with its admin session. */
  evictions(): number {
    let n = 0;
    for (const logins of this.perUser.values()) n += Math.max(0, 1 + logins - this.sessionLimit);
    return n;
  }
}

interface Expected {
  "session.create.flow": number;
  "session.delete.passive.limit": number;
}

function expectedPerEndpoint(counter: LoginCounter): Expected {
  return { "session.create.flow": counter.total, "session.delete.passive.limit": counter.evictions() };
}

function missing(receiver: WebhookReceiver, paths: string[], expected: Expected): number {
  let n = 0;
  for (const p of paths)
    for (const [event, count] of Object.entries(expected)) n += Math.max(0, count - receiver.count(p, event));
  return n;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  cleanupOnSignals();
  if (!buildIfNeeded(log)) throw new Error("next build failed");
  const idleLoad = await machineLoad();
  if (idleLoad > 0.25) log(`Warning: the machine is busy before the benchmark (${idleLoad} cores in use).`);
  const startedAt = new Date();

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-webhooks-"));
  onCleanup("temporary folder", () => fs.rmSync(workDir, { recursive: true, force: true }));
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const env = {
    ...sesameEnv(port, { dataDir: path.join(workDir, "data"), databaseUrl: undefined }),
    SESAME_WEBHOOKS_ALLOW_PRIVATE: "true",
  };
  const tenantArgs = [
    ...["--session-limit", String(options.sessionLimit)],
    ...["--signing-algorithm", options.signingAlgorithm],
  ];
  log(`Creating two tenants, starting the server on port ${port} …`);
  const tenants: Record<Variant, ReturnType<typeof createTenant>> = {
    without: createTenant(env, origin, "bench-no-webhooks", tenantArgs),
    with: createTenant(env, origin, "bench-webhooks", tenantArgs),
  };

  const receiver = new WebhookReceiver();
  const receiverPort = await receiver.listen();
  onCleanup("webhook receiver", () => receiver.close());
  const profileDir = options.cpuProf
    ? fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-prof-"))
    : undefined;
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const running = await startServer("next", port, env, path.join(workDir, "server.log"), nodeArgs);
  const client = new HttpClient("127.0.0.1", port);
  onCleanup("HTTP client", () => client.close());
  const rss = new RssMonitor(running.pid);
  onCleanup("RSS monitor", () => rss.stop());

  const targets: Record<Variant, Target> = {
    without: { client, tenantId: tenants.without.tenantId, origin },
    with: { client, tenantId: tenants.with.tenantId, origin },
  };
  const authenticators = {} as Record<Variant, WebAuthnSoftwareAuthenticator[]>;
  for (const variant of ["without", "with"] as const) {
    const started = performance.now();
    const users = await seedPlatformUsers(
      targets[variant],
      tenants[variant].adminApiKey,
      options.users,
      variant,
    );
    authenticators[variant] = users.map((u) => u.authenticator);
    log(
      `${LABEL[variant]}: ${options.users} users with a passkey in ${Math.round(performance.now() - started)} ms`,
    );
  }
  // Created after the users, so every delivery the receiver gets comes from a login.
  const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/hook/${i}`);
  for (const p of paths)
    await createWebhook(
      targets.with,
      tenants.with.adminApiKey,
      `http://127.0.0.1:${receiverPort}${p}`,
      EVENTS,
    );

  const counters: Record<Variant, LoginCounter> = {
    without: new LoginCounter(options.sessionLimit),
    with: new LoginCounter(options.sessionLimit),
  };

  /** Waits until the receiver has every delivery the logins so far must cause; returns the seconds. */
  async function drain(): Promise<number> {
    const started = performance.now();
    const expected = expectedPerEndpoint(counters.with);
    while (missing(receiver, paths, expected) > 0) {
      if (performance.now() - started > DRAIN_TIMEOUT_MS) {
        log(
          `Warning: ${missing(receiver, paths, expected)} deliveries still missing after ${DRAIN_TIMEOUT_MS / 1000} s`,
        );
        break;
      }
      await sleep(20);
    }
    return (performance.now() - started) / 1000;
  }

  async function runRound(
    variant: Variant,
    round: number,
    warmupMs: number,
    windowMs: number,
  ): Promise<Round> {
    const counter = counters[variant];
    const loginsBefore = counter.total;
    const roundStart = sampleWindow(running.pid);
    let start: WindowSamples | undefined;
    let backlogAtWindowEnd = 0;
    const { kept } = await closedLoop(targets[variant], authenticators[variant], {
      ceremony: publicLoginCeremony(counter.add),
      concurrency: CONCURRENCY,
      warmupMs,
      windowMs,
      windows: 1,
      maxWindows: 1,
      onWindowStart: () => {
        rss.reset();
        start = sampleWindow(running.pid);
      },
      onWindowEnd: (window) => {
        const result = summarize(window, start!, sampleWindow(running.pid), rss.reset());
        if (variant === "with") backlogAtWindowEnd = missing(receiver, paths, expectedPerEndpoint(counter));
        return { result, keep: true };
      },
    });
    const drainSeconds = variant === "with" ? await drain() : 0;
    const end = sampleWindow(running.pid);
    const logins = counter.total - loginsBefore;
    return {
      round,
      variant,
      window: kept[0]!,
      logins,
      allInServerCpuMsPerLogin: round2((cpuSecondsBetween(roundStart.server, end.server) * 1000) / logins),
      backlogAtWindowEnd,
      drainSeconds: round2(drainSeconds),
    };
  }

  // Warm-up of both tenants (JIT, caches, the worker's connections), not reported.
  for (const variant of ["without", "with"] as const)
    await runRound(variant, 0, 1_000, options.quick ? 2_000 : 4_000);
  log("Warm-up done.");

  const order: Variant[] = [];
  for (let pair = 0; pair < options.pairs; pair++)
    order.push(...(pair % 2 === 0 ? (["without", "with"] as const) : (["with", "without"] as const)));
  const rounds: Round[] = [];
  for (const [i, variant] of order.entries()) {
    const r = await runRound(variant, i + 1, options.warmupMs, options.windowMs);
    rounds.push(r);
    log(
      `round ${r.round} ${LABEL[variant]}: ${r.window.ceremoniesPerSecond}/s, p50 ${r.window.latencyMs.p50} ms, ` +
        `p99 ${r.window.latencyMs.p99} ms, ${r.window.serverCpuMsPerCeremony} ms server CPU per login` +
        (variant === "with" ? `, backlog ${r.backlogAtWindowEnd}, drained in ${r.drainSeconds} s` : ""),
    );
  }

  const summary = (variant: Variant) => {
    const mine = rounds.filter((r) => r.variant === variant);
    const avg = (pick: (r: Round) => number) => round2(mean(mine.map(pick)));
    return {
      rounds: mine.length,
      ceremoniesPerSecond: avg((r) => r.window.ceremoniesPerSecond),
      p50Ms: avg((r) => r.window.latencyMs.p50),
      p99Ms: avg((r) => r.window.latencyMs.p99),
      serverCpuMsPerLogin: avg((r) => r.window.serverCpuMsPerCeremony),
      allInServerCpuMsPerLogin: avg((r) => r.allInServerCpuMsPerLogin),
      serverCores: avg((r) => r.window.serverCores),
      otherCores: avg((r) => r.window.otherCores),
    };
  };
  const without = summary("without");
  const withHooks = summary("with");
  const ratio = {
    throughput: round(withHooks.ceremoniesPerSecond / without.ceremoniesPerSecond, 3),
    p50: round(withHooks.p50Ms / without.p50Ms, 3),
    p99: round(withHooks.p99Ms / without.p99Ms, 3),
    serverCpuPerLogin: round(withHooks.serverCpuMsPerLogin / without.serverCpuMsPerLogin, 3),
    allInServerCpuPerLogin: round(withHooks.allInServerCpuMsPerLogin / without.allInServerCpuMsPerLogin, 3),
  };
  const met = ratio.throughput >= TARGET_RATIO;

  // Every login of tenant B must have reached every endpoint once (plus one per evicted session).
  await drain();
  const expected = expectedPerEndpoint(counters.with);
  const deliveries = paths.map((p) => ({
    endpoint: p,
    received: receiver.counts.byPath[p] ?? {},
    expected,
    complete: Object.entries(expected).every(([event, n]) => receiver.count(p, event) === n),
  }));
  const deliveriesOk = deliveries.every((d) => d.complete) && receiver.counts.duplicates === 0;

  const table = formatTable(
    [
      "round",
      "tenant",
      "ceremonies/s",
      "p50 ms",
      "p99 ms",
      "server CPU ms/login",
      "all-in CPU ms/login",
      "server cores",
      "backlog",
      "drain s",
      "other load",
      "errors",
    ],
    rounds.map((r) => [
      String(r.round),
      LABEL[r.variant],
      r.window.ceremoniesPerSecond.toFixed(0),
      r.window.latencyMs.p50.toFixed(1),
      r.window.latencyMs.p99.toFixed(1),
      r.window.serverCpuMsPerCeremony.toFixed(2),
      r.allInServerCpuMsPerLogin.toFixed(2),
      r.window.serverCores.toFixed(2),
      String(r.backlogAtWindowEnd),
      r.drainSeconds.toFixed(2),
      r.window.otherCores.toFixed(2),
      String(r.window.errors),
    ]),
    2,
  );
  const pct = (x: number) => `${((x - 1) * 100).toFixed(1)} %`;
  const report = [
    "",
    `Public API WebAuthn login (initialize + finalize, a platform session) at c=${CONCURRENCY}, PGlite, ` +
      `${options.windowMs / 1000} s windows after ${options.warmupMs / 1000} s warm-up, rounds A B, B A, …; ` +
      `${options.signingAlgorithm}, session limit ${options.sessionLimit}`,
    "",
    table,
    "",
    `Means over ${without.rounds} + ${withHooks.rounds} rounds: without ${without.ceremoniesPerSecond}/s ` +
      `(p50 ${without.p50Ms} ms, p99 ${without.p99Ms} ms, ${without.serverCpuMsPerLogin} ms CPU/login), ` +
      `with ${withHooks.ceremoniesPerSecond}/s (p50 ${withHooks.p50Ms} ms, p99 ${withHooks.p99Ms} ms, ` +
      `${withHooks.serverCpuMsPerLogin} ms CPU/login; ${withHooks.allInServerCpuMsPerLogin} ms with the deliveries drained).`,
    `With ÷ without: throughput ${(ratio.throughput * 100).toFixed(1)} % (goal ≥ ${TARGET_RATIO * 100} %: ` +
      `${met ? "met" : "MISSED"}), p50 ${pct(ratio.p50)}, p99 ${pct(ratio.p99)}, server CPU per login ` +
      `${pct(ratio.serverCpuPerLogin)} in the window, ${pct(ratio.allInServerCpuPerLogin)} all-in.`,
    `Deliveries: ${counters.with.total} logins and ${counters.with.evictions()} evicted sessions on tenant B; per endpoint ` +
      deliveries.map((d) => `${d.endpoint} ${JSON.stringify(d.received)}`).join(", ") +
      `; duplicates ${receiver.counts.duplicates}: ${deliveriesOk ? "every one arrived exactly once" : "MISMATCH"}.`,
    ...(Math.max(...rounds.map((r) => r.window.otherCores)) > 0.25
      ? [
          `Warning: other processes used up to ${Math.max(...rounds.map((r) => r.window.otherCores)).toFixed(2)} ` +
            "cores during the rounds; the interleaving cancels slow drift, not bursts.",
        ]
      : []),
    "",
  ].join("\n");
  process.stdout.write(report);

  const file = writeResults(
    [
      "webhooks",
      options.quick ? "quick" : "",
      options.sessionLimit === DEFAULT_SESSION_LIMIT ? "" : `limit${options.sessionLimit}`,
      options.signingAlgorithm === "RS256" ? "" : options.signingAlgorithm,
      options.cpuProf ? "cpu-prof" : "",
    ],
    {
      date: startedAt.toISOString(),
      machine: { ...machineInfo(), busyCoresBeforeStart: idleLoad },
      settings: {
        quick: options.quick,
        pairs: options.pairs,
        order,
        users: options.users,
        concurrency: CONCURRENCY,
        warmupSeconds: options.warmupMs / 1000,
        windowSeconds: options.windowMs / 1000,
        database: "pglite",
        server: "scripts/server.mjs",
        ceremony:
          "public API POST /t/{tenant}/webauthn/login/initialize + /finalize (discoverable), a platform session",
        webhooks: `${ENDPOINTS} endpoints subscribed to ${EVENTS.join(", ")}, node:http receiver on 127.0.0.1 answering 204`,
        sessionLimit: options.sessionLimit,
        signingAlgorithm: options.signingAlgorithm,
      },
      target: { throughputRatioAtLeast: TARGET_RATIO },
      summary: { without, with: withHooks, ratio, met },
      deliveries: {
        logins: counters.with.total,
        evictedSessions: counters.with.evictions(),
        endpoints: deliveries,
        duplicates: receiver.counts.duplicates,
        ok: deliveriesOk,
      },
      rounds,
    },
  );
  log(`Results written to ${file}`);
  if (profileDir) log(`CPU profile of the server (kept, written when it stops): ${profileDir}`);
}

function round2(value: number): number {
  return round(value, 2);
}

main()
  .catch((error: unknown) => {
    if (interrupted()) return;
    process.stderr.write(`\nThe benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
