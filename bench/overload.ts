/**
 * `npm run bench:overload`: Sesame under overload (issue 28). Starts `scripts/server.mjs` on a fresh
 * embedded database (or on DATABASE_URL), measures the p99 of Passkey API login initializations at a
 * normal load (16 clients), then with 1,000 concurrent clients for BENCH_SECONDS (default 60): the server
 * must not crash, its RSS stays bounded, every refused request is a clean 503 with Retry-After, and the
 * admitted requests' p99 is compared with the normal load's. A benchmark, not a test: it prints figures.
 *
 * On Postgres (a throwaway Postgres 15 the benchmark starts), the overload is repeated with the database
 * stopped: every answer must still be a quick 503, and logins must succeed again soon after it is back.
 *
 * Usage: `npm run bench:overload [-- --store pglite|postgres|both]` (default both). Environment:
 * BENCH_SECONDS (default 60), BENCH_CLIENTS (default 1000), SESAME_MAX_REQUESTS_IN_FLIGHT (passed on to
 * the server), BENCH_NODE_OPTIONS (the server's NODE_OPTIONS, default `--max-old-space-size=256` as `npm start`),
 * MALLOC_ARENA_MAX (default 2, as `npm start`).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort, startPostgres } from "@/scripts/lib/postgres";

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const clients = Number(process.env.BENCH_CLIENTS ?? 1000);

interface Sample {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  error?: string;
  /** When it was sent (performance.now()). */
  at?: number;
}

let sent = 0;

/**
 * Each request comes from an address of its own (198.18.0.0/15, the benchmarking range), through the
 * trusted proxy on loopback: discoverable logins are limited per IP (60 a minute), and this measures
 * overload, not that limit.
 */
function clientAddress(): string {
  const n = sent++ % 131_072;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

function post(agent: http.Agent, url: string): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers = { "x-forwarded-for": clientAddress() };
    const req = http.request(url, { method: "POST", agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: res.headers["retry-after"],
        }),
      );
    });
    req.on("error", (error) =>
      resolve({ status: 0, ms: performance.now() - started, retryAfter: undefined, error: error.message }),
    );
    req.end();
  });
}

const p = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

async function load(url: string, concurrency: number, durationMs: number, pid: number, label: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: Sample[] = [];
  let peakRss = 0;
  const until = Date.now() + durationMs;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 250);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const at = performance.now();
        const sample = await post(agent, url);
        samples.push({ ...sample, at });
        // A refused request waits as Retry-After says (a well-behaved client), at most 10 s.
        if (sample.status === 503)
          await new Promise((r) => setTimeout(r, Math.min(10_000, Number(sample.retryAfter ?? 1) * 1000)));
      }
    }),
  );
  clearInterval(sampler);
  agent.destroy();
  // BENCH_SAMPLES=prefix: every sample of the phase as JSON lines (<prefix>-<store>-<phase>.jsonl), to see when the slow ones were sent.
  if (process.env.BENCH_SAMPLES) {
    const first = samples.reduce((least, s) => Math.min(least, s.at ?? Infinity), Infinity);
    fs.writeFileSync(
      `${process.env.BENCH_SAMPLES}-${label}.jsonl`,
      samples.map((s) => JSON.stringify({ ...s, at: Math.round((s.at ?? 0) - first) })).join("\n"),
    );
  }
  const ok = samples.filter((s) => s.status === 200);
  const refused = samples.filter((s) => s.status === 503);
  const other = samples.filter((s) => s.status !== 200 && s.status !== 503);
  return {
    requests: samples.length,
    ok: ok.length,
    refused: refused.length,
    refusedWithoutRetryAfter: refused.filter((s) => !s.retryAfter).length,
    refusedP99Ms: Math.round(
      p(
        refused.map((s) => s.ms),
        0.99,
      ),
    ),
    other: other.length,
    otherStatuses: [...new Set(other.map((s) => s.error ?? String(s.status)))].slice(0, 5),
    admittedP50Ms: Math.round(
      p(
        ok.map((s) => s.ms),
        0.5,
      ),
    ),
    admittedP99Ms: Math.round(
      p(
        ok.map((s) => s.ms),
        0.99,
      ),
    ),
    peakRssMb: Math.round(peakRss),
  };
}

type Phase = Awaited<ReturnType<typeof load>>;

interface Run {
  store: "pglite" | "postgres";
  clients: number;
  seconds: number;
  maxInFlight: string;
  normal: Phase;
  overload: Phase;
  /** Postgres only: the same overload with the database stopped, then how soon logins succeed again. */
  outage?: Phase & { recoveredAfterMs: number };
  survived: boolean;
  exitCode: number | null;
  p99Ratio: number;
}

/** Sends one request a 100 ms until it is answered 200; resolves with the time that took. */
async function recovery(url: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: false });
  const started = performance.now();
  for (;;) {
    const sample = await post(agent, url);
    if (sample.status === 200) return Math.round(performance.now() - started);
    if (performance.now() - started > 60_000) return Number.NaN;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function run(store: "pglite" | "postgres"): Promise<Run> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-overload-"));
  // Postgres: a throwaway Postgres 15 of the benchmark's own, so that it can be stopped for the outage.
  const postgres = store === "postgres" ? await startPostgres() : undefined;
  postgres?.createDatabase("sesame");
  const server = spawn("node", ["scripts/server.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      SESAME_DATA_DIR: dataDir,
      DATABASE_URL: postgres?.url("sesame") ?? "",
      LOG_LEVEL: "error",
      SESAME_TRUSTED_PROXIES: "127.0.0.1/32",
      NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? "--max-old-space-size=256",
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    while (!/authenticator key\s+sesame_authenticator_\S+/.test(output)) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
      tenantId: string;
    };
    const url = `http://127.0.0.1:${port}/passkey/${demo.tenantId}/login/initialize`;
    const pid = server.pid as number;

    // A warm-up first: the first requests after the start compile code and fill caches.
    await load(url, 16, 5_000, pid, `${store}-warm-up`);
    const normal = await load(url, 16, 10_000, pid, `${store}-normal`);
    const overload = await load(url, clients, seconds * 1000, pid, `${store}-overload`);
    let outage: Run["outage"];
    if (postgres) {
      postgres.stop();
      const during = await load(url, clients, seconds * 1000, pid, `${store}-outage`);
      postgres.start();
      outage = { ...during, recoveredAfterMs: await recovery(url) };
    }
    const alive = server.exitCode === null;
    server.kill("SIGTERM");
    const code = await exited;
    return {
      store,
      clients,
      seconds,
      maxInFlight: process.env.SESAME_MAX_REQUESTS_IN_FLIGHT ?? "default",
      normal,
      overload,
      outage,
      survived: alive,
      exitCode: code,
      p99Ratio: Number((overload.admittedP99Ms / normal.admittedP99Ms).toFixed(2)),
    };
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    postgres?.destroy();
  }
}

async function main() {
  const wanted = parseArgs({ options: { store: { type: "string", default: "both" } } }).values.store;
  if (!["pglite", "postgres", "both"].includes(wanted)) {
    throw new Error("--store takes pglite, postgres or both");
  }
  const stores = wanted === "both" ? (["pglite", "postgres"] as const) : [wanted as "pglite" | "postgres"];
  fs.mkdirSync("bench/results", { recursive: true });
  for (const store of stores) {
    const result = await run(store);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(`bench/results/overload-${store}.json`, `${JSON.stringify(result, null, 2)}\n`);
  }
}

await main();
