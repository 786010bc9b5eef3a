import { and, asc, count, eq, lt, or, sql } from "drizzle-orm";
import { executor, rowsOf } from "@/lib/db";
import { embeddedCache } from "@/lib/db/embedded-cache";
import { webhooks, type WebhookRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

/**
 * The webhook endpoints (the `webhooks` table): what the admin API creates, lists, changes and deletes,
 * and the health the worker writes after each attempt. The outbox and its deliveries are
 * `delivery-store.ts` (emission, listing, detail) and `queue-store.ts` (the worker's claims, leases,
 * outcomes and retention).
 */
// ---- endpoints ---------------------------------------------------------------------------------------

/** The event names the tenant's enabled endpoints subscribe to, kept on the embedded database. */
const subscriptions = embeddedCache<string[]>("webhookSubscriptions");

/**
 * The event names (as subscribed: names, prefixes, aliases) of the tenant's enabled endpoints, on the
 * embedded database from memory after the first read (every write below empties it); undefined on
 * Postgres and inside a transaction, where nothing is read: the emission's own statement decides there.
 */
export function cachedSubscriptionNames(tenantId: string): Promise<string[] | undefined> {
  return subscriptions.readIfEmbedded(tenantId, async () => {
    const db = await executor();
    const rows = rowsOf<{ name: string | null }>(
      await db.execute(sql`select distinct subscription->>'event' as name
        from ${webhooks}, jsonb_array_elements(${webhooks.events}) as subscription
        where ${webhooks.tenantId} = ${tenantId} and ${webhooks.enabled}`),
    );
    return rows.flatMap((row) => (row.name === null ? [] : [row.name]));
  });
}

/** Runs a write to the endpoints with the subscription cache emptied before and after it. */
async function changing<T>(write: () => Promise<T>): Promise<T> {
  subscriptions.forget();
  try {
    return await write();
  } finally {
    subscriptions.forget();
  }
}

export async function insertWebhook(values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  return changing(async () => {
    const db = await executor();
    const [row] = await db.insert(webhooks).values(values).returning();
    return row!;
  });
}

/**
 * The tenant's number of endpoints, counted under a transaction-scoped advisory lock of the tenant's
 * endpoint list, so concurrent creations cannot both pass a cap (call inside a transaction).
 */
export async function countWebhooksLocked(tenantId: string): Promise<number> {
  const db = await executor();
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${tenantId}`}, 0))`);
  const [row] = await db.select({ n: count() }).from(webhooks).where(eq(webhooks.tenantId, tenantId));
  return Number(row?.n ?? 0);
}

export async function selectWebhooks(tenantId: string): Promise<WebhookRow[]> {
  const db = await executor();
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.tenantId, tenantId))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

export async function findWebhook(
  tenantId: string,
  webhookId: string,
  options: { lock?: boolean } = {},
): Promise<WebhookRow | undefined> {
  if (!UUID_PATTERN.test(webhookId)) return undefined;
  const db = await executor();
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, webhookId)))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

export async function updateWebhookRow(
  tenantId: string,
  webhookId: string,
  values: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow | undefined> {
  if (!UUID_PATTERN.test(webhookId)) return undefined;
  return changing(async () => {
    const db = await executor();
    const [row] = await db
      .update(webhooks)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, webhookId)))
      .returning();
    return row;
  });
}

export async function deleteWebhookRow(tenantId: string, webhookId: string): Promise<boolean> {
  if (!UUID_PATTERN.test(webhookId)) return false;
  return changing(async () => {
    const db = await executor();
    const rows = await db
      .delete(webhooks)
      .where(and(eq(webhooks.tenantId, tenantId), eq(webhooks.id, webhookId)))
      .returning({ id: webhooks.id });
    return rows.length > 0;
  });
}

// ---- endpoint health (after each attempt) ------------------------------------------------------------

/**
 * After a success: the failure streak ends and `expires_at` moves 30 days on (as Hanko). Written only
 * when something changes (a streak to end, or `expires_at` a day old), so busy endpoints do not make
 * their row hot.
 */
export async function markWebhookSucceeded(webhookId: string): Promise<void> {
  const db = await executor();
  await db
    .update(webhooks)
    .set({ failures: 0, failingSince: null, expiresAt: sql`now() + interval '30 days'` })
    .where(
      and(
        eq(webhooks.id, webhookId),
        or(
          sql`${webhooks.failures} > 0`,
          sql`${webhooks.failingSince} is not null`,
          lt(webhooks.expiresAt, sql`now() + interval '29 days'`),
        ),
      ),
    );
}

/**
 * After a failed attempt: counts it and starts the streak if none is running. Returns the endpoint
 * when its streak began more than `disableAfterMs` ago and it was disabled by this call.
 */
export async function markWebhookFailed(
  webhookId: string,
  disableAfterMs: number,
): Promise<WebhookRow | undefined> {
  const db = await executor();
  await db
    .update(webhooks)
    .set({
      failures: sql`${webhooks.failures} + 1`,
      failingSince: sql`coalesce(${webhooks.failingSince}, now())`,
    })
    .where(eq(webhooks.id, webhookId));
  const [disabled] = await db
    .update(webhooks)
    .set({ enabled: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhooks.id, webhookId),
        eq(webhooks.enabled, true),
        lt(webhooks.failingSince, sql`now() - make_interval(secs => ${disableAfterMs / 1000})`),
      ),
    )
    .returning();
  // A disabled endpoint no longer receives: what was kept of the subscriptions is read again.
  if (disabled) subscriptions.forget();
  return disabled;
}
