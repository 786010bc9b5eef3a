import { subscriptionsMatching, type WebhookEvent } from "./events";
import { anyWebhookMatches, insertEventIfSubscribed, insertEventWithDeliveries } from "./store";
import { wakeWebhookWorker } from "./wake";

/**
 * Reports a change to the tenant's webhooks, inside the caller's transaction (store calls join it), so
 * a rolled-back change sends nothing and a committed one is never lost. `data` is the event's data, or
 * a function that reads it: then one indexed query first decides whether any enabled endpoint
 * subscribes to the event (by name, prefix or alias), and only then is the data read and the event
 * written with one delivery per matching endpoint. Data at hand (a session row) goes in one statement
 * that writes nothing when nobody subscribes. Returns the number of deliveries.
 */
export async function emitWebhookEvent(
  tenantId: string,
  event: WebhookEvent,
  data: (() => Promise<unknown>) | Record<string, unknown>,
): Promise<number> {
  const names = subscriptionsMatching(event);
  let deliveries: number;
  if (typeof data === "function") {
    if (!(await anyWebhookMatches(tenantId, names))) return 0;
    deliveries = await insertEventWithDeliveries(tenantId, event, await data(), names);
  } else {
    deliveries = await insertEventIfSubscribed(tenantId, event, data, names);
  }
  if (deliveries > 0) wakeWebhookWorker();
  return deliveries;
}
