/**
 * `npm run bench:overload`: Sesame under overload (issue 28). Starts `scripts/server.mjs` on a fresh
 * embedded database (or on DATABASE_URL), measures the p99 of Passkey API login initializations at a
 * normal load (16 clients), then with 1,000 concurrent clients for BENCH_SECONDS (default 60): the server
 * must not crash, its RSS stays bounded, every refused request is a clean 503 with Retry-After, and the
 * admitted requests' p99 is compared with the normal load's. A benchmark, not a test: it prints figures.
 *
 * Environment: BENCH_SECONDS, BENCH_CLIENTS (default 1000), DATABASE_URL (Postgres; unset: PGlite),
 * SESAME_MAX_REQUESTS_IN_FLIGHT (passed on to the server).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/scripts/lib/postgres";

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const clients = Number(process.env.BENCH_CLIENTS ?? 1000);

interface Sample {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  error?: string;
}

function post(agent: http.Agent, url: string): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(url, { method: "POST", agent }, (res) => {
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

async function load(url: string, concurrency: number, durationMs: number, pid: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: Sample[] = [];
  let peakRss = 0;
  const until = Date.now() + durationMs;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 250);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const sample = await post(agent, url);
        samples.push(sample);
        // A refused request waits as Retry-After says (a well-behaved client), at most 1 s.
        if (sample.status === 503)
          await new Promise((r) => setTimeout(r, Math.min(1000, Number(sample.retryAfter ?? 1) * 1000)));
      }
    }),
  );
  clearInterval(sampler);
  agent.destroy();
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

async function main() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-overload-"));
  const server = spawn("node", ["scripts/server.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      SESAME_DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      LOG_LEVEL: "error",
      NODE_OPTIONS: "--max-old-space-size=256",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
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

  const normal = await load(url, 16, 10_000, pid);
  const overload = await load(url, clients, seconds * 1000, pid);
  const alive = server.exitCode === null;
  server.kill("SIGTERM");
  const code = await exited;
  const result = {
    store: process.env.DATABASE_URL ? "postgres" : "pglite",
    clients,
    seconds,
    normal,
    overload,
    survived: alive,
    exitCode: code,
    p99Ratio: Number((overload.admittedP99Ms / normal.admittedP99Ms).toFixed(2)),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  fs.mkdirSync("bench/results", { recursive: true });
  fs.writeFileSync(`bench/results/overload-${result.store}.json`, `${JSON.stringify(result, null, 2)}\n`);
}

await main();
