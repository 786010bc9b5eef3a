/**
 * A webhook worker in its own process, for tests/admin-api/webhooks-process.test.ts: opens the database
 * named by DATABASE_URL and runs the delivery worker until killed. Settings from the environment:
 * WEBHOOK_LEASE_MS (claim lease), WEBHOOK_POLL_MS.
 */
import { configureDatabase, getDatabase } from "@/lib/db";
import { configureWebhooks, startWebhookWorker } from "@/lib/webhooks";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
configureDatabase({ kind: "postgres", url });
configureWebhooks({
  allowPrivate: true,
  leaseMs: Number(process.env.WEBHOOK_LEASE_MS ?? 60_000),
  retrySchedule: [200, 200, 200, 200, 200],
  jitter: 0,
  timeoutMs: 30_000,
});
await getDatabase();
startWebhookWorker({ pollIntervalMs: Number(process.env.WEBHOOK_POLL_MS ?? 100) });
// The worker's timers do not keep a process alive (a server's listener does): this one does, until killed.
setInterval(() => {}, 1 << 30);
process.stdout.write("worker ready\n");
