import { subscriptionsMatching, type WebhookEvent } from "./events";
import { anyWebhookMatches, insertEventIfSubscribed, insertEventsIfSubscribed } from "./delivery-store";
import { cachedSubscriptionNames } from "./store";
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
  // Data still to be read is read only once a subscriber is known to exist.
  if (typeof data === "function" && !(await anyWebhookMatches(tenantId, names))) return 0;
  const payload = typeof data === "function" ? await data() : data;
  const deliveries = await insertEventIfSubscribed(tenantId, event, payload, names);
  if (deliveries > 0) wakeWebhookWorker();
  return deliveries;
}

/**
 * Several changes reported at once, each with its data at hand (a session and the sessions its limit
 * ended), in one statement inside the caller's transaction; the events keep their order. Returns the
 * number of deliveries.
 */
export async function emitWebhookEvents(
  tenantId: string,
  events: { event: WebhookEvent; data: Record<string, unknown> }[],
): Promise<number> {
  if (events.length === 0) return 0;
  if (events.length === 1) return emitWebhookEvent(tenantId, events[0]!.event, events[0]!.data);
  const deliveries = await insertEventsIfSubscribed(
    tenantId,
    events.map(({ event, data }) => ({ event, data, names: subscriptionsMatching(event) })),
  );
  if (deliveries > 0) wakeWebhookWorker();
  return deliveries;
}

/**
 * False when no enabled endpoint of the tenant subscribes to any of `events`, known without a statement
 * (on the embedded database, from the endpoints' subscriptions kept in memory); true when one does or
 * when that is not known here (Postgres, or inside a transaction): the emission's statement decides then.
 * Lets a hot path leave out a transaction it would open only for the outbox.
 */
export async function mayDeliver(tenantId: string, events: readonly WebhookEvent[]): Promise<boolean> {
  const names = await cachedSubscriptionNames(tenantId);
  if (names === undefined) return true;
  return events.some((event) => subscriptionsMatching(event).some((name) => names.includes(name)));
}
