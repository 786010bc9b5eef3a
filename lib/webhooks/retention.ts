import { webhookSettings } from "./settings";
import { deleteFinishedDeliveries, deleteOrphanEvents } from "./queue-store";

/** Rows one statement deletes at most; a sweep repeats until fewer are left (or `maxBatches`). */
const BATCH = 500;
/** An event and its deliveries are written in one transaction; this margin is for clocks, not for logic. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * Retention of the delivery log: deletes deliveries that finished (succeeded or failed) more than
 * `retentionMs` (30 days) ago with their attempts, then events no delivery refers to any more (the data
 * they carry, e.g. a deleted user's, goes with them). Pending deliveries keep their event until they
 * end. In bounded batches (SKIP LOCKED, so instances sweeping at once do not wait for each other).
 */
export async function sweepWebhookHistory(
  options: { batch?: number; maxBatches?: number } = {},
): Promise<{ deliveries: number; events: number }> {
  const batch = options.batch ?? BATCH;
  const maxBatches = options.maxBatches ?? 100;
  const { retentionMs } = webhookSettings();
  let deliveries = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await deleteFinishedDeliveries(retentionMs, batch);
    deliveries += deleted;
    if (deleted < batch) break;
  }
  let events = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await deleteOrphanEvents(ORPHAN_GRACE_MS, batch);
    events += deleted;
    if (deleted < batch) break;
  }
  return { deliveries, events };
}
