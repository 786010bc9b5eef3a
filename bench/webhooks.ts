/**
 * Webhook deliveries per second to a local receiver (issue 15's goal: ≥ 500/s on the embedded default).
 *
 *   npm run bench:deliveries -- [--events 3000] [--concurrency 32] [--db pglite|postgres]
 *                            [--signing-algorithm ES256|RS256|EdDSA]
 *
 * One process, as one Sesame instance: a fresh PGlite data folder (or `--db postgres`: DATABASE_URL),
 * a tenant with one endpoint on a `node:http` receiver on loopback (answers 204 at once), N events
 * emitted and committed first, then the delivery worker (poll 50 ms, `--concurrency` in flight) drains
 * the queue. Each delivery signs a JWT with the tenant key (ES256), an HMAC signature, makes one HTTP
 * request and records the attempt. Reported: deliveries/s from the worker's start to the last recorded
 * success. The receiver runs in the same process, so it shares the CPU with the worker.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machineInfo, writeResults } from "./lib/meta";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "32" },
    db: { type: "string", default: "pglite" },
    "signing-algorithm": { type: "string", default: "ES256" },
  },
});
const EVENTS = Number(values.events);
const CONCURRENCY = Number(values.concurrency);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-bench-webhooks-"));
process.env.LOG_LEVEL ??= "silent";
process.env.SESAME_SEED_DEMO = "false";
process.env.SESAME_DATA_DIR = dataDir;
process.env.SESAME_MASTER_SECRET ??= "bench-master-secret-0123456789abcdefghijklmnop";

const { closeDatabase, configureDatabase, transaction } = await import("@/lib/db");
const { provisionTenant } = await import("@/lib/accounts");
const webhooks = await import("@/lib/webhooks");

if (values.db === "postgres") {
  if (!process.env.DATABASE_URL) throw new Error("--db postgres needs DATABASE_URL");
  configureDatabase({ kind: "postgres", url: process.env.DATABASE_URL });
} else {
  configureDatabase({ kind: "pglite", dir: path.join(dataDir, "pglite") });
}

let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 5000;
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;

try {
  webhooks.configureWebhooks({ allowPrivate: true });
  const { tenant } = await provisionTenant(
    {
      name: "bench",
      rpId: "localhost",
      origins: ["http://localhost:3000"],
      signingAlgorithm: values["signing-algorithm"] as "ES256" | "RS256" | "EdDSA",
    },
    "bench",
  );
  await webhooks.createWebhook(
    tenant.id,
    { callback: `http://127.0.0.1:${port}/hook`, events: ["user"] },
    { actor: "bench" },
  );
  for (let done = 0; done < EVENTS; done += 500) {
    await transaction(async () => {
      for (let i = done; i < Math.min(EVENTS, done + 500); i++) {
        await webhooks.emitWebhookEvent(tenant.id, "user.create", async () => ({ id: `user-${i}` }));
      }
    });
  }
  let succeeded = 0;
  let other = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = webhooks.createWebhookWorker({
    pollIntervalMs: 50,
    concurrency: CONCURRENCY,
    onOutcome: (outcome) => {
      if (outcome === "succeeded") succeeded++;
      else other++;
      if (succeeded + other >= EVENTS) finished();
    },
  });
  await allDone;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await worker.stop();
  const rate = succeeded / seconds;
  const result = {
    database: values.db,
    signingAlgorithm: values["signing-algorithm"],
    events: EVENTS,
    concurrency: CONCURRENCY,
    succeeded,
    failedOrRetried: other,
    receiverRequests: received,
    seconds: Math.round(seconds * 100) / 100,
    deliveriesPerSecond: Math.round(rate),
    // Wall-clock rate depends on what else runs; deliveries per CPU-second of this process (worker and
    // receiver) is what one free core would reach.
    cpuSeconds: Math.round(cpuSeconds * 100) / 100,
    deliveriesPerCpuSecond: Math.round(succeeded / cpuSeconds),
    goal: 500,
    met: rate >= 500,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const file = writeResults(["deliveries", String(values.db), String(values["signing-algorithm"])], {
    date: new Date().toISOString(),
    machine: machineInfo(),
    ...result,
  });
  process.stderr.write(`Results written to ${file}\n`);
} finally {
  server.close();
  await closeDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
