import { subscriptionsMatching, type WebhookEvent } from "./events";
import { anyWebhookMatches, insertEventWithDeliveries } from "./store";
import { wakeWebhookWorker } from "./wake";

/**
 * Reports a change to the tenant's webhooks, inside the caller's transaction (store calls join it):
 * one indexed query decides whether any enabled endpoint subscribes to the event (by name, prefix or
 * alias); only then is `loadData` run and the event written to the outbox with one delivery per
 * matching endpoint, in one statement. A rolled-back change therefore sends nothing and a committed
 * one is never lost; a tenant without webhooks pays one query. Returns the number of deliveries.
 */
export async function emitWebhookEvent(
  tenantId: string,
  event: WebhookEvent,
  loadData: () => Promise<unknown>,
): Promise<number> {
  const names = subscriptionsMatching(event);
  if (!(await anyWebhookMatches(tenantId, names))) return 0;
  const data = await loadData();
  const deliveries = await insertEventWithDeliveries(tenantId, event, data, names);
  if (deliveries > 0) wakeWebhookWorker();
  return deliveries;
}
