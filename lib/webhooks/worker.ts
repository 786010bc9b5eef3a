import { AsyncResource } from "node:async_hooks";
import { recordAuditEvent } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { getLogger } from "@/lib/log";
import { findTenant, signToken } from "@/lib/tenants";
import { TEST_EVENT } from "./events";
import { signingSecrets } from "./secret";
import { BACKCHANNEL_LOGOUT_EVENT, logoutTokenFields } from "./backchannel-logout";
import { postForm, postJson, signatureHeaders, type SendResult } from "./send";
import { retryDelay, webhookSettings } from "./settings";
import { CallbackRefused, resolveCallback } from "./ssrf";
import {
  abandonDelivery,
  claimDueDeliveries,
  finishAttempt,
  finishAttempts,
  queueStats,
  releaseAllLeases,
  releaseLeases,
  type ClaimedDelivery,
  type FinishedAttempt,
} from "./queue-store";
import { markWebhookFailed, markWebhookSucceeded } from "./store";
import { setWebhookWake } from "./wake";

/** What became of one attempt: delivered, given up, or scheduled again. */
export type DeliveryOutcome = "succeeded" | "failed" | "retry";
export type OutcomeListener = (outcome: DeliveryOutcome) => void;

const LISTENERS = Symbol.for("sesame.webhookOutcomeListeners");
type Holder = { [LISTENERS]?: Set<OutcomeListener>; [WORKER]?: WebhookWorker };
const WORKER = Symbol.for("sesame.webhookWorker");
const holder = globalThis as Holder;

/** Calls `listener` with the outcome of every attempt this process makes (metrics); returns an unsubscribe. */
export function onWebhookOutcome(listener: OutcomeListener): () => void {
  holder[LISTENERS] ??= new Set();
  holder[LISTENERS].add(listener);
  return () => holder[LISTENERS]?.delete(listener);
}

function report(outcome: DeliveryOutcome, extra?: OutcomeListener): void {
  for (const listener of holder[LISTENERS] ?? []) listener(outcome);
  extra?.(outcome);
}

/**
 * At start-up on the embedded database: its folder lock admits one process only, so every lease found
 * now belonged to a process that died (kill -9, a crash) and its deliveries are due again at once,
 * instead of after the lease. Never on Postgres, where leases may belong to live instances.
 */
export async function releaseDeadLeases(): Promise<number> {
  return releaseAllLeases();
}

/** Depth of the queue (pending deliveries) and the age of the oldest due one, in seconds. */
export function webhookQueueStats(): Promise<{ depth: number; oldestPendingSeconds: number }> {
  return queueStats();
}

/**
 * The tenant's token audience (its RP ID), kept for 5 s: one lookup per tenant and few seconds, not one
 * per event; a changed RP ID reaches every instance's tokens within those seconds (docs/webhooks.md).
 */
const audiences = new Map<string, { rpId: string; until: number }>();
const AUDIENCE_MS = 5_000;
async function audienceOf(tenantId: string): Promise<string> {
  const cached = audiences.get(tenantId);
  if (cached && cached.until > Date.now()) return cached.rpId;
  const tenant = await findTenant(tenantId);
  if (!tenant) throw new Error(`tenant ${tenantId} not found`);
  audiences.set(tenantId, { rpId: tenant.rpId, until: Date.now() + AUDIENCE_MS });
  return tenant.rpId;
}

/**
 * Bodies by event id: every endpoint of an event gets the same body (its token names the event, not the
 * endpoint), so the JWT is signed once per event, not once per delivery. Kept for a minute (tokens live
 * five), at most {@link MAX_BODIES}; a derived value, so another instance simply signs its own.
 */
const bodies = new Map<string, { body: Promise<string>; until: number }>();
const BODY_REUSE_MS = 60_000;
const MAX_BODIES = 1000;

/** Hanko's body (`event`, `token`: a JWT of the tenant with `evt` and `data`) plus `data`. */
function payloadOf({ event }: ClaimedDelivery): Promise<string> {
  const now = Date.now();
  const cached = bodies.get(event.id);
  if (cached && cached.until > now) return cached.body;
  const body = (async () => {
    const token = await signToken(
      event.tenantId,
      { evt: event.event, data: event.data },
      { subject: "hanko webhooks", audience: [await audienceOf(event.tenantId)], expiresIn: 300 },
    );
    return JSON.stringify({ event: event.event, token, data: event.data });
  })();
  bodies.delete(event.id);
  bodies.set(event.id, { body, until: now + BODY_REUSE_MS });
  body.catch(() => bodies.delete(event.id));
  while (bodies.size > MAX_BODIES) bodies.delete(bodies.keys().next().value!);
  return body;
}

/** One HTTP attempt, SSRF guard included (the address is resolved and checked again now). */
async function attempt(claimed: ClaimedDelivery): Promise<SendResult> {
  const settings = webhookSettings();
  let target;
  try {
    target = await resolveCallback(
      claimed.webhook?.callback ?? claimed.delivery.target!,
      settings.allowPrivate,
    );
  } catch (error) {
    if (!(error instanceof CallbackRefused)) throw error;
    return { statusCode: null, durationMs: 0, response: null, error: error.reason };
  }
  if (!claimed.webhook) {
    // A direct delivery: a back-channel logout token (the only kind), form-encoded, no signature headers.
    if (claimed.event.event !== BACKCHANNEL_LOGOUT_EVENT)
      return { statusCode: null, durationMs: 0, response: null, error: "unknown_delivery" };
    return postForm(target, await logoutTokenFields(claimed), settings.timeoutMs);
  }
  const body = await payloadOf(claimed);
  const now = new Date();
  const headers = signatureHeaders(claimed.delivery.id, now, body, signingSecrets(claimed.webhook, now));
  return postJson(target, body, headers, settings.timeoutMs);
}

// Attempts waiting to be recorded together: flushed on the next turn of the event loop, 100 at most
// per statement. Each waiter learns whether its lease was still held.
const pending: {
  finished: FinishedAttempt;
  done: (recorded: boolean) => void;
  fail: (error: unknown) => void;
}[] = [];
let flushScheduled = false;

function recordBatched(finished: FinishedAttempt): Promise<boolean> {
  return new Promise((done, fail) => {
    pending.push({ finished, done, fail });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(() => void flush());
    }
  });
}

async function flush(): Promise<void> {
  flushScheduled = false;
  const batch = pending.splice(0, 100);
  if (pending.length > 0) {
    flushScheduled = true;
    setImmediate(() => void flush());
  }
  try {
    const recorded = await finishAttempts(batch.map((entry) => entry.finished));
    for (const entry of batch) entry.done(recorded.has(entry.finished.deliveryId));
  } catch (error) {
    for (const entry of batch) entry.fail(error);
  }
}

/** `expires_at` (30 days after the last success) is pushed on once it is a day old. */
const EXPIRES_REFRESH_MS = 29 * 24 * 60 * 60 * 1000;

const hasFailureStreak = (webhook: NonNullable<ClaimedDelivery["webhook"]>) =>
  webhook.failures > 0 || webhook.failingSince !== null;

/** Sends one claimed delivery and records the attempt and what comes next. */
export async function processDelivery(claimed: ClaimedDelivery, onOutcome?: OutcomeListener): Promise<void> {
  const { delivery, webhook, event } = claimed;
  const leaseToken = delivery.leaseToken!;
  if (webhook && !webhook.enabled && event.event !== TEST_EVENT) {
    await abandonDelivery(delivery.id, leaseToken, "endpoint_disabled");
    report("failed", onOutcome);
    return;
  }
  const attemptedAt = new Date();
  let result: SendResult;
  try {
    result = await attempt(claimed);
  } catch (error) {
    getLogger().error({ err: error, deliveryId: delivery.id }, "webhook attempt failed");
    result = { statusCode: null, durationMs: 0, response: null, error: "internal_error" };
  }
  const succeeded = result.error === null;
  const settings = webhookSettings();
  const delay = succeeded ? undefined : retryDelay(delivery.attemptCount + 1, settings);
  const outcome: DeliveryOutcome = succeeded ? "succeeded" : delay === undefined ? "failed" : "retry";
  const next = {
    status: outcome === "retry" ? ("pending" as const) : outcome,
    nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay),
  };
  let recorded: boolean;
  if (!webhook) {
    // A direct delivery has no endpoint whose streak to count.
    recorded = await recordBatched({
      deliveryId: delivery.id,
      leaseToken,
      attempt: { attemptedAt, ...result },
      next,
    });
  } else if (succeeded && !hasFailureStreak(webhook)) {
    // The common case: recorded with others in one statement; the endpoint row is touched at most
    // daily (expires_at).
    recorded = await recordBatched({
      deliveryId: delivery.id,
      leaseToken,
      attempt: { attemptedAt, ...result },
      next,
    });
    if (recorded && webhook.expiresAt.getTime() < Date.now() + EXPIRES_REFRESH_MS)
      await markWebhookSucceeded(webhook.id);
  } else {
    recorded = await transaction(async () => {
      if (!(await finishAttempt(delivery.id, leaseToken, { attemptedAt, ...result }, next))) return false;
      if (succeeded) {
        await markWebhookSucceeded(webhook.id);
        return true;
      }
      const disabled = await markWebhookFailed(webhook.id, settings.disableAfterMs);
      if (disabled) {
        await recordAuditEvent(webhook.tenantId, {
          actor: "system",
          type: "webhook.disabled",
          details: {
            webhookId: webhook.id,
            failingSince: disabled.failingSince,
            failures: disabled.failures,
          },
        });
      }
      return true;
    });
  }
  if (recorded) report(outcome, onOutcome);
}

/** Claims up to `limit` due deliveries once and processes them; resolves when all are done. */
export async function processDueDeliveries(
  options: { limit?: number; onOutcome?: OutcomeListener } = {},
): Promise<number> {
  const settings = webhookSettings();
  const claimed = await claimDueDeliveries(options.limit ?? 16, settings.leaseMs, settings.tenantConcurrency);
  await Promise.all(claimed.map((item) => processDelivery(item, options.onOutcome)));
  return claimed.length;
}

export interface WebhookWorkerOptions {
  /** How often to look for due deliveries (default 1 s). */
  pollIntervalMs?: number;
  /** Deliveries in flight at most (default 16). */
  concurrency?: number;
  onOutcome?: OutcomeListener;
}

export interface WebhookWorkerStop {
  /**
   * Waits at most this long for the deliveries in flight, then hands back the leases of those still
   * running, so that another instance sends them at once rather than after the lease (default: waits
   * for all of them).
   */
  handBackAfterMs?: number;
}

export interface WebhookWorker {
  /** Looks for due deliveries now. */
  wake(): void;
  /**
   * Stops claiming and waits for the deliveries in flight (or hands them back, see
   * {@link WebhookWorkerStop}); resolves with the number of leases handed back.
   */
  stop(options?: WebhookWorkerStop): Promise<number>;
}

/**
 * A delivery worker: polls for due deliveries, keeps at most `concurrency` in flight, claims more as
 * slots free. Every instance runs one; claims are leases, so instances never send the same attempt.
 */
export function createWebhookWorker(options: WebhookWorkerOptions = {}): WebhookWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const concurrency = options.concurrency ?? 32;
  // Each delivery in flight, by its lease token (handed back at stop when it does not finish in time).
  const inFlight = new Map<Promise<void>, string>();
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  let polling = false;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    const at = Date.now() + delayMs;
    if (timer && at >= dueAt) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Infinity;
      void poll();
    }, delayMs);
    timer.unref?.();
  };

  let pollAgain = false;
  const poll = async () => {
    if (stopped) return;
    if (polling) {
      // A claim is running: claim once more right after it (slots freed meanwhile are not forgotten).
      pollAgain = true;
      return;
    }
    polling = true;
    try {
      const free = concurrency - inFlight.size;
      if (free > 0) {
        const settings = webhookSettings();
        const claimed = await claimDueDeliveries(free, settings.leaseMs, settings.tenantConcurrency);
        // Claim again once half of this batch is done (once half the slots are free, when the claim came
        // back full): one claim query per half batch, not per delivery. When it took fewer than asked
        // (an empty queue, or tenants at their in-flight cap), any other completion claims within 25 ms.
        const full = claimed.length === free;
        const again = Math.floor((full ? concurrency : claimed.length) / 2);
        for (const item of claimed) {
          const work = processDelivery(item, options.onOutcome)
            .catch((error: unknown) =>
              getLogger().error({ err: error, deliveryId: item.delivery.id }, "webhook delivery failed"),
            )
            .finally(() => {
              inFlight.delete(work);
              if (inFlight.size <= again) schedule(0);
              else if (!full) schedule(25);
            });
          inFlight.set(work, item.delivery.leaseToken!);
        }
      }
    } catch (error) {
      getLogger().error({ err: error }, "webhook worker could not claim deliveries");
    } finally {
      polling = false;
    }
    if (pollAgain) {
      pollAgain = false;
      schedule(0);
    }
    schedule(pollIntervalMs);
  };

  // Bound to the worker's own async context: a wake from inside a request's transaction must not make
  // the worker's queries join that transaction (AsyncLocalStorage follows timers).
  const wake = AsyncResource.bind(() => schedule(25));
  schedule(0);

  return {
    wake,
    async stop({ handBackAfterMs }: WebhookWorkerStop = {}) {
      stopped = true;
      clearTimeout(timer);
      const all = Promise.allSettled([...inFlight.keys()]);
      if (handBackAfterMs === undefined) {
        await all;
        return 0;
      }
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((resolve) => (waited = setTimeout(resolve, handBackAfterMs)))]);
      clearTimeout(waited);
      const held = [...inFlight.values()];
      if (held.length === 0) return 0;
      const released = await releaseLeases(held);
      getLogger().info({ released }, "webhook worker handed back its leased deliveries");
      return released;
    },
  };
}

/** Starts this process's worker once (lib/boot) and lets emits in this process wake it. */
export function startWebhookWorker(options: WebhookWorkerOptions = {}): WebhookWorker {
  if (!holder[WORKER]) {
    const worker = createWebhookWorker(options);
    holder[WORKER] = worker;
    setWebhookWake(worker.wake);
  }
  return holder[WORKER];
}

/** Stops this process's worker (see {@link WebhookWorker.stop}); resolves with the leases handed back. */
export async function stopWebhookWorker(options?: WebhookWorkerStop): Promise<number> {
  const worker = holder[WORKER];
  delete holder[WORKER];
  setWebhookWake(undefined);
  return (await worker?.stop(options)) ?? 0;
}
