import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/route";
import * as deliveriesRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/route";
import { transaction } from "@/lib/db";
import { configureWebhooks, emitWebhookEvent } from "@/lib/webhooks";
import { adminCall } from "@/tests/helpers/admin-api";
import { createTestTenant } from "@/tests/helpers/tenants";
import { startReceiver, useOwnPostgresDatabase } from "./webhooks-receiver";

const WORKER = path.resolve("tests/admin-api/webhooks-worker.ts");
const postgres = process.env.DATABASE_URL;
let databaseUrl: string | undefined;

const children: ChildProcess[] = [];

/** A worker process on the suite's Postgres; resolves once it runs. */
function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  // node itself runs the worker (tsx as a loader, not its wrapper process), so SIGKILL hits the worker.
  const child = spawn(process.execPath, ["--import", "tsx", WORKER], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("worker ready")) resolve(child);
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: () => unknown,
  timeoutMs = 60_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting: ${JSON.stringify(await what())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function subscribed(callback: string) {
  const provisioned = await createTestTenant({ signingAlgorithm: "ES256" });
  const tenantId = provisioned.tenant.id;
  const res = await adminCall(collection.POST, `/t/${tenantId}/admin/webhooks`, provisioned.keys.admin, {
    method: "POST",
    params: { tenantId },
    body: { callback, events: ["user"] },
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const deliveries = async () => {
    const list = await adminCall(
      deliveriesRoute.GET,
      `/t/${tenantId}/admin/webhooks/${id}/deliveries?per_page=100`,
      provisioned.keys.admin,
      { params: { tenantId, webhookId: id } },
    );
    return (await list.json()) as { id: string; status: string; attempts: unknown[] }[];
  };
  return { tenantId, deliveries };
}

async function emitMany(tenantId: string, count: number): Promise<void> {
  await transaction(async () => {
    for (let i = 0; i < count; i++) await emitWebhookEvent(tenantId, "user.create", async () => ({ i }));
  });
}

// PGlite is one process's database (it cannot be opened by two processes), so these run on Postgres only.
describe.skipIf(!postgres)("webhook workers as processes (Postgres)", () => {
  beforeAll(async () => {
    databaseUrl = await useOwnPostgresDatabase();
    configureWebhooks({ allowPrivate: true });
  });
  afterAll(() => configureWebhooks(undefined));
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => kill(child, "SIGKILL")));
  });

  it("a worker killed with SIGKILL mid-delivery: another worker delivers every committed event after the lease", async () => {
    let holding = true;
    const rx = await startReceiver((_request, response) => {
      if (!holding) response.writeHead(200).end("ok");
      // While holding, the request stays open: the delivery is in flight when the worker dies.
    });
    try {
      const { tenantId, deliveries } = await subscribed(`${rx.url}/hook`);
      await emitMany(tenantId, 20);
      const first = await startWorker({ WEBHOOK_LEASE_MS: "1500" });
      await waitFor(
        () => rx.received.length >= 16, // 16 in flight at most
        () => ({ received: rx.received.length }),
      );
      await kill(first, "SIGKILL");
      expect((await deliveries()).every((delivery) => delivery.status === "pending")).toBe(true);

      holding = false;
      await startWorker({ WEBHOOK_LEASE_MS: "1500" });
      await waitFor(
        async () => (await deliveries()).every((delivery) => delivery.status === "succeeded"),
        async () => ({ received: rx.received.length, deliveries: await deliveries() }),
      );
      const all = await deliveries();
      expect(all).toHaveLength(20);
      const ids = new Set(rx.received.map((request) => request.headers["webhook-id"]));
      for (const delivery of all) expect(ids.has(delivery.id)).toBe(true);
      // The killed worker's attempts were never recorded: each delivery has its one successful attempt.
      for (const delivery of all) expect(delivery.attempts).toHaveLength(1);
    } finally {
      await rx.close();
    }
  }, 120_000);

  it("two worker processes on one Postgres deliver each delivery exactly once", async () => {
    const rx = await startReceiver(
      (_request, response) => void setTimeout(() => response.writeHead(204).end(), 5),
    );
    try {
      const { tenantId, deliveries } = await subscribed(`${rx.url}/hook`);
      await Promise.all([startWorker(), startWorker()]);
      await emitMany(tenantId, 100);
      await waitFor(
        async () => rx.received.length >= 100,
        () => ({ received: rx.received.length }),
      );
      await waitFor(
        async () => (await deliveries()).every((delivery) => delivery.status === "succeeded"),
        async () => (await deliveries()).filter((delivery) => delivery.status !== "succeeded"),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ids = rx.received.map((request) => request.headers["webhook-id"]);
      expect(ids).toHaveLength(100);
      expect(new Set(ids).size).toBe(100);
    } finally {
      await rx.close();
    }
  }, 120_000);
});
