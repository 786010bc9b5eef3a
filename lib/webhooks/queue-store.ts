import { and, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { executor, rowsOf } from "@/lib/db";
import {
  webhookDeliveries,
  webhookEvents,
  webhooks,
  type WebhookDeliveryRow,
  type WebhookDeliveryStatus,
  type WebhookEventRow,
  type WebhookRow,
} from "@/lib/db/schema";

/**
 * The delivery worker's queries on the outbox (`webhook_deliveries`, `webhook_attempts`): claims under
 * a lease, leases handed back, each attempt's outcome and the next try (retry or give up), deliveries
 * abandoned, the queue's statistics for metrics, and the retention sweep. What writes and reads the
 * deliveries as records (emission, listing, detail) is `delivery-store.ts`.
 */

// ---- worker ------------------------------------------------------------------------------------------

export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  event: WebhookEventRow;
  /** The endpoint; null for a direct delivery (`delivery.target`). */
  webhook: WebhookRow | null;
}

/** Ends every lease (the deliveries are due again at once); returns how many were held. */
export async function releaseAllLeases(): Promise<number> {
  const db = await executor();
  const rows = await db
    .update(webhookDeliveries)
    .set({ leaseUntil: null, leaseToken: null })
    .where(and(eq(webhookDeliveries.status, "pending"), isNotNull(webhookDeliveries.leaseUntil)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * Ends the leases of these claims (a worker shutting down hands back what it could not finish): the
 * deliveries are due again at once for any other worker. An attempt still running under one of them
 * can no longer record its outcome (finishAttempt checks the lease token). Returns how many were held.
 */
export async function releaseLeases(leaseTokens: string[]): Promise<number> {
  if (leaseTokens.length === 0) return 0;
  const db = await executor();
  const rows = await db
    .update(webhookDeliveries)
    .set({ leaseUntil: null, leaseToken: null })
    .where(and(eq(webhookDeliveries.status, "pending"), inArray(webhookDeliveries.leaseToken, leaseTokens)))
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * Claims up to `limit` due deliveries for `leaseMs` (FOR UPDATE SKIP LOCKED: concurrent workers get
 * different rows; a delivery whose lease ran out is due again). Each claim gets a fresh lease token.
 * Fair between tenants: a tenant has at most `perTenant` deliveries in flight (leased, over all
 * workers), so one tenant's backlog or slow receiver cannot hold every slot; the oldest due first.
 */
export async function claimDueDeliveries(
  limit: number,
  leaseMs: number,
  perTenant: number,
): Promise<ClaimedDelivery[]> {
  const db = await executor();
  // Per tenant with pending deliveries (found by a loose index scan: one probe per tenant, whatever the
  // backlog), its in-flight count and its earliest `perTenant` due rows; ranked after the in-flight
  // ones, so the cost of a claim grows with the number of tenants, not with the queue. Only the outer
  // select (no window function there) locks, and only the rows it picks.
  const due = sql`(
    with recursive tenants_pending as (
      (select tenant_id from webhook_deliveries where status = 'pending' order by tenant_id limit 1)
      union all
      select (
        select w.tenant_id from webhook_deliveries w
        where w.status = 'pending' and w.tenant_id > p.tenant_id
        order by w.tenant_id limit 1
      )
      from tenants_pending p where p.tenant_id is not null
    ),
    ranked as (
      select c.id, c.next_attempt_at,
        row_number() over (partition by p.tenant_id order by c.next_attempt_at, c.id) + f.n as slot
      from tenants_pending p
      cross join lateral (
        select count(*) as n from webhook_deliveries l
        where l.tenant_id = p.tenant_id and l.status = 'pending' and l.lease_until >= now()
      ) f
      cross join lateral (
        select d.id, d.next_attempt_at from webhook_deliveries d
        where d.tenant_id = p.tenant_id and d.status = 'pending' and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until < now())
        order by d.next_attempt_at, d.id
        limit ${perTenant}
      ) c
      where p.tenant_id is not null
    )
    select d.id from webhook_deliveries d join ranked r on r.id = d.id
    where r.slot <= ${perTenant}
      -- Checked again on the row itself: a row another worker claimed and committed after this
      -- statement's snapshot is not skipped by SKIP LOCKED (no longer locked), and READ COMMITTED
      -- re-evaluates only these conditions on its new version, not the ranking's.
      and d.status = 'pending' and d.next_attempt_at <= now()
      and (d.lease_until is null or d.lease_until < now())
    order by r.next_attempt_at, d.id
    limit ${limit}
    for update of d skip locked
  )`;
  const claimed = await db
    .update(webhookDeliveries)
    .set({
      leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      leaseToken: sql`gen_random_uuid()`,
    })
    .where(
      sql`${webhookDeliveries.id} in ${due} and ${webhookDeliveries.status} = 'pending'
        and (${webhookDeliveries.leaseUntil} is null or ${webhookDeliveries.leaseUntil} < now())`,
    )
    .returning();
  if (claimed.length === 0) return [];
  const rows = await db
    .select({ event: webhookEvents, webhook: webhooks, id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .leftJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(
      inArray(
        webhookDeliveries.id,
        claimed.map((row) => row.id),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return claimed.flatMap((delivery) => {
    const row = byId.get(delivery.id);
    return row ? [{ delivery, event: row.event, webhook: row.webhook }] : [];
  });
}

export interface AttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  response: string | null;
  error: string | null;
}

/**
 * Records an attempt and the delivery's next state, only while this claim still holds the lease
 * (`leaseToken`). Returns false when the lease was lost (another worker re-claimed it): nothing is written.
 */
export async function finishAttempt(
  deliveryId: string,
  leaseToken: string,
  attempt: AttemptRecord,
  next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null },
): Promise<boolean> {
  const db = await executor();
  // One statement: the attempt row is written only if the update found the lease still ours.
  const result = await db.execute(sql`
    with finished as (
      update webhook_deliveries set
        status = ${next.status},
        next_attempt_at = ${next.nextAttemptAt?.toISOString() ?? null}::timestamptz,
        attempt_count = attempt_count + 1,
        lease_until = null,
        lease_token = null,
        last_status_code = ${attempt.statusCode}::integer,
        last_error = ${attempt.error}::text,
        updated_at = now()
      where id = ${deliveryId} and lease_token = ${leaseToken}
      returning id
    )
    insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, response, error)
    select id, ${attempt.attemptedAt.toISOString()}::timestamptz, ${attempt.statusCode}::integer,
      ${attempt.durationMs}::integer, ${attempt.response}::text, ${attempt.error}::text
    from finished
    returning id`);
  return rowsOf(result).length > 0;
}

export interface FinishedAttempt {
  deliveryId: string;
  leaseToken: string;
  attempt: AttemptRecord;
  next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null };
}

/**
 * {@link finishAttempt} for many deliveries in one statement (the worker's hot path). Returns the ids
 * whose lease was still held, i.e. whose attempt was recorded.
 */
export async function finishAttempts(finished: FinishedAttempt[]): Promise<Set<string>> {
  if (finished.length === 0) return new Set();
  const db = await executor();
  const rows = sql.join(
    finished.map(
      ({ deliveryId, leaseToken, attempt, next }) =>
        sql`(${deliveryId}::uuid, ${leaseToken}::uuid, ${next.status}::text,
          ${next.nextAttemptAt?.toISOString() ?? null}::timestamptz, ${attempt.statusCode}::integer,
          ${attempt.error}::text, ${attempt.attemptedAt.toISOString()}::timestamptz,
          ${attempt.durationMs}::integer, ${attempt.response}::text)`,
    ),
    sql`, `,
  );
  const result = await db.execute(sql`
    with input (id, token, status, next_at, status_code, error, attempted_at, duration_ms, response) as (
      values ${rows}
    ),
    finished as (
      update webhook_deliveries as d set
        status = input.status,
        next_attempt_at = input.next_at,
        attempt_count = d.attempt_count + 1,
        lease_until = null,
        lease_token = null,
        last_status_code = input.status_code,
        last_error = input.error,
        updated_at = now()
      from input
      where d.id = input.id and d.lease_token = input.token
      returning d.id
    )
    insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, response, error)
    select input.id, input.attempted_at, input.status_code, input.duration_ms, input.response, input.error
    from input join finished on finished.id = input.id
    returning delivery_id`);
  return new Set(rowsOf<{ delivery_id: string }>(result).map((row) => row.delivery_id));
}

/** Ends a delivery without an attempt (its endpoint is disabled), while the claim holds the lease. */
export async function abandonDelivery(deliveryId: string, leaseToken: string, error: string): Promise<void> {
  const db = await executor();
  await db
    .update(webhookDeliveries)
    .set({
      status: "failed",
      nextAttemptAt: null,
      leaseUntil: null,
      leaseToken: null,
      lastError: error,
      updatedAt: sql`now()`,
    })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.leaseToken, leaseToken)));
}

/** Pending deliveries (due or waiting for a retry) and the age of the oldest due one (for metrics). */
export async function queueStats(): Promise<{ depth: number; oldestPendingSeconds: number }> {
  const db = await executor();
  const [row] = await db
    .select({
      depth: count(),
      oldest: sql<
        string | number | null
      >`extract(epoch from now() - min(${webhookDeliveries.nextAttemptAt}) filter (where ${webhookDeliveries.nextAttemptAt} <= now()))`,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  return { depth: Number(row?.depth ?? 0), oldestPendingSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
}

// ---- retention ---------------------------------------------------------------------------------------

/**
 * Deletes up to `batch` deliveries that finished (succeeded or failed) more than `olderThanMs` ago,
 * and their attempts (cascade). SKIP LOCKED: concurrent sweepers take different rows. Returns the count.
 */
export async function deleteFinishedDeliveries(olderThanMs: number, batch: number): Promise<number> {
  const db = await executor();
  const result = await db.execute(sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries
      where status in ('succeeded', 'failed')
        and updated_at < now() - make_interval(secs => ${olderThanMs / 1000})
      limit ${batch}
      for update skip locked
    )
    returning id`);
  return rowsOf(result).length;
}

/**
 * Deletes up to `batch` events without any delivery left (swept, or their endpoint deleted), created
 * more than `graceMs` ago (an event and its deliveries are written in one transaction). Returns the count.
 */
export async function deleteOrphanEvents(graceMs: number, batch: number): Promise<number> {
  const db = await executor();
  const result = await db.execute(sql`
    delete from webhook_events where id in (
      select e.id from webhook_events e
      where e.created_at < now() - make_interval(secs => ${graceMs / 1000})
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)
      limit ${batch}
      for update of e skip locked
    )
    returning id`);
  return rowsOf(result).length;
}
