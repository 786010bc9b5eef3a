import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { executor, rowsOf } from "@/lib/db";
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEvents,
  webhooks,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookDeliveryStatus,
  type WebhookEventRow,
} from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

/**
 * The outbox and its deliveries as records: events written to `webhook_events` with one delivery per
 * subscribed endpoint (`webhook_deliveries`), and the deliveries and their attempts (`webhook_attempts`)
 * listed and read one by one. The worker's side of the same tables (claims, leases, outcomes and
 * retries, queue statistics, retention) is `queue-store.ts`; the endpoints themselves are `store.ts`.
 */

// ---- emission ----------------------------------------------------------------------------------------

/** The tenant's enabled endpoints subscribed to one of `names` (an event's subscription names). */
function matching(tenantId: string, names: string[]): SQL {
  const list = sql.join(
    names.map((name) => sql`${name}`),
    sql`, `,
  );
  return sql`${webhooks.tenantId} = ${tenantId} and ${webhooks.enabled} and exists (
    select 1 from jsonb_array_elements(${webhooks.events}) as subscription
    where subscription->>'event' in (${list}))`;
}

/** One indexed query: does any enabled endpoint of the tenant subscribe to one of `names`? */
export async function anyWebhookMatches(tenantId: string, names: string[]): Promise<boolean> {
  const db = await executor();
  const rows = await db.select({ id: webhooks.id }).from(webhooks).where(matching(tenantId, names)).limit(1);
  return rows.length > 0;
}

/**
 * Writes the event to the outbox and one pending delivery per matching endpoint, in one statement that
 * writes nothing when no endpoint matches (joins the caller's transaction). Returns the number of
 * deliveries.
 */
export async function insertEventIfSubscribed(
  tenantId: string,
  event: string,
  data: unknown,
  names: string[],
): Promise<number> {
  const db = await executor();
  const result = await db.execute(sql`
    with targets as (
      select webhooks.id from webhooks where ${matching(tenantId, names)}
    ),
    event as (
      insert into webhook_events (tenant_id, event, data)
      select ${tenantId}, ${event}, ${JSON.stringify(data ?? null)}::jsonb
      where exists (select 1 from targets)
      returning id, tenant_id
    )
    insert into webhook_deliveries (tenant_id, webhook_id, event_id)
    select event.tenant_id, targets.id, event.id from targets, event
    returning id`);
  return rowsOf(result).length;
}

/**
 * Several events with their data at hand, each written to the outbox with one pending delivery per
 * matching endpoint, in one statement (events nobody subscribes to are not written); their order is kept
 * (their times at least a microsecond apart: one statement may read the same clock for several rows).
 * Joins the caller's transaction. Returns the number of deliveries.
 */
export async function insertEventsIfSubscribed(
  tenantId: string,
  events: { event: string; data: unknown; names: string[] }[],
): Promise<number> {
  const db = await executor();
  const input = sql.join(
    events.map(
      ({ event, data, names }, index) =>
        sql`(${index}::int, gen_random_uuid(), ${event}::text, ${JSON.stringify(data ?? null)}::jsonb, array[${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )}]::text[])`,
    ),
    sql`, `,
  );
  const result = await db.execute(sql`
    with input (ord, id, event, data, names) as (values ${input}),
    targets as (
      select input.ord, webhooks.id from input join webhooks on ${webhooks.tenantId} = ${tenantId}
        and ${webhooks.enabled} and exists (
          select 1 from jsonb_array_elements(${webhooks.events}) as subscription
          where subscription->>'event' = any(input.names))
    ),
    event as (
      insert into webhook_events (id, tenant_id, event, data, created_at)
      select input.id, ${tenantId}, input.event, input.data,
        clock_timestamp() + input.ord * interval '1 microsecond' from input
      where exists (select 1 from targets where targets.ord = input.ord)
      order by input.ord
      returning id
    )
    insert into webhook_deliveries (tenant_id, webhook_id, event_id, created_at)
    select ${tenantId}, targets.id, input.id, clock_timestamp() + input.ord * interval '1 microsecond'
    from targets join input on input.ord = targets.ord
    where exists (select 1 from event where event.id = input.id)
    order by input.ord
    returning id`);
  return rowsOf(result).length;
}

/** An event for one endpoint only (the test event), and its delivery. */
export async function insertEventForWebhook(
  tenantId: string,
  webhookId: string,
  event: string,
  data: unknown,
): Promise<EndpointDeliveryRow> {
  const db = await executor();
  const [row] = await db.insert(webhookEvents).values({ tenantId, event, data }).returning();
  return insertDelivery(tenantId, webhookId, row!.id);
}

export async function insertDelivery(
  tenantId: string,
  webhookId: string,
  eventId: string,
): Promise<EndpointDeliveryRow> {
  const db = await executor();
  const [row] = await db.insert(webhookDeliveries).values({ tenantId, webhookId, eventId }).returning();
  return row as EndpointDeliveryRow;
}

/**
 * A direct delivery (no endpoint): the event and one pending delivery to `target`, in one statement
 * (joins the caller's transaction).
 */
export async function insertDirectDelivery(
  tenantId: string,
  event: string,
  data: unknown,
  target: string,
): Promise<void> {
  const db = await executor();
  await db.execute(sql`
    with event as (
      insert into webhook_events (tenant_id, event, data)
      values (${tenantId}, ${event}, ${JSON.stringify(data ?? null)}::jsonb)
      returning id, tenant_id
    )
    insert into webhook_deliveries (tenant_id, event_id, target)
    select event.tenant_id, event.id, ${target} from event`);
}

// ---- deliveries (read) -------------------------------------------------------------------------------

/** A delivery to an endpoint (not a direct one): its `webhook_id` is set. */
export type EndpointDeliveryRow = WebhookDeliveryRow & { webhookId: string };

export interface DeliveryWithEvent {
  delivery: EndpointDeliveryRow;
  event: WebhookEventRow;
}

export async function findDelivery(
  tenantId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryWithEvent | undefined> {
  if (!UUID_PATTERN.test(deliveryId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.id, deliveryId),
      ),
    )
    .limit(1);
  // Selected by its endpoint: `webhook_id` is set.
  return row as DeliveryWithEvent | undefined;
}

export async function selectDeliveries(
  tenantId: string,
  webhookId: string,
  options: { status?: WebhookDeliveryStatus; limit: number; offset: number },
): Promise<{ rows: DeliveryWithEvent[]; total: number }> {
  const db = await executor();
  const where = and(
    eq(webhookDeliveries.tenantId, tenantId),
    eq(webhookDeliveries.webhookId, webhookId),
    options.status ? eq(webhookDeliveries.status, options.status) : undefined,
  );
  const rows = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(options.limit)
    .offset(options.offset);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return { rows: rows as DeliveryWithEvent[], total: Number(total?.n ?? 0) };
}

export async function selectAttempts(deliveryIds: string[]): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const db = await executor();
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
}
