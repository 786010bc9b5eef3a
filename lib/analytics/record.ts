import { classifyEvent, type ClassifiedEvent, type Counted } from "./classify";
import { utcDay } from "./days";
import { bumpCounter } from "./store";

export { counterCtes, randomShard } from "./store";

export { classifyEvent, type Counted };

/**
 * Rolls one counted audit event (`classifyEvent` said what it counts as) into the tenant's daily
 * counters, as it is written: called by `recordAuditEvent` in the audit row's transaction (executor()),
 * one statement (lib/analytics/store.ts `bumpCounter`). `at` is the event's time (UTC day).
 */
export async function recordAnalytics(
  tenantId: string,
  counted: Counted,
  at: Date = new Date(),
): Promise<void> {
  await bumpCounter(tenantId, utcDay(at), counted.metric, counted.activeUser);
}

/** `recordAnalytics` for an event not yet classified: nothing when it does not count (tests, tools). */
export async function recordEventAnalytics(
  tenantId: string,
  event: ClassifiedEvent,
  at?: Date,
): Promise<void> {
  const counted = classifyEvent(event);
  if (counted) await recordAnalytics(tenantId, counted, at);
}
