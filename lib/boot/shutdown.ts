import { stopBackgroundTasks } from "@/lib/background";
import { closeDatabase } from "@/lib/db";
import { getLogger } from "@/lib/log";

/**
 * How long the webhook worker waits for its deliveries in flight at shutdown before it hands their
 * leases back (another instance then sends them at once instead of after the 60 s lease). Below the
 * webhook timeout (10 s), so an attempt that is nearly done still records its own outcome.
 */
export const HAND_BACK_AFTER_MS = 5_000;

const KEY = Symbol.for("sesame.shutdown");

/**
 * The process's part of a graceful shutdown, started by scripts/server.mjs on SIGTERM: stop the
 * background tasks and the webhook worker at once (it hands back the leases of deliveries it could not
 * finish), and once `requestsDone` (the HTTP server has finished the requests in flight), close the
 * database (the pool; PGlite: the folder and its lock).
 */
export async function shutdown(requestsDone: Promise<unknown> = Promise.resolve()): Promise<void> {
  stopBackgroundTasks();
  const { stopWebhookWorker } = await import("@/lib/webhooks");
  try {
    await stopWebhookWorker({ handBackAfterMs: HAND_BACK_AFTER_MS });
  } catch (error) {
    getLogger().error({ err: error }, "the webhook worker could not hand back its deliveries");
  }
  await requestsDone;
  await closeDatabase();
}

/** Lets scripts/server.mjs (plain JavaScript, another bundle) call {@link shutdown} through globalThis. */
export function registerShutdown(): void {
  (globalThis as { [KEY]?: typeof shutdown })[KEY] = shutdown;
}
