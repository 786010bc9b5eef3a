import { transaction } from "@/lib/db";
import { emitWebhookEvent, sessionEventData } from "@/lib/webhooks";
import { deleteExpiredSessions } from "./store";

/**
 * Deletes expired sessions of every tenant (a token past its expiry is refused anyway; the rows only
 * take space), each batch in one short transaction with its `session.delete.passive.expire` webhook
 * events. Rows another instance's sweep holds are skipped. Returns how many sessions went. Runs in the
 * background of every instance (lib/boot), never on a login.
 */
export async function sweepExpiredSessions(
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  const maxBatches = options.maxBatches ?? 100;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await transaction(async () => {
      const rows = await deleteExpiredSessions(batchSize);
      for (const row of rows)
        await emitWebhookEvent(row.tenantId, "session.delete.passive.expire", async () =>
          sessionEventData(row),
        );
      return rows.length;
    });
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
