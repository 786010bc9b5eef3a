import { classifyEvent, type ClassifiedEvent } from "./classify";
import { utcDay } from "./days";
import { bumpCounter } from "./store";

/** Whether recording this event touches the rollup (so the caller may open a transaction for both rows). */
export function isCounted(event: ClassifiedEvent): boolean {
  return classifyEvent(event) !== undefined;
}

/**
 * Rolls one audit event up into the tenant's daily counters, as it is written: called by
 * `recordAuditEvent` in the audit row's transaction (executor()). A counted event is one statement
 * (lib/analytics/store.ts `bumpCounter`); any other event none. `at` is the event's time (UTC day).
 */
export async function recordAnalytics(
  tenantId: string,
  event: ClassifiedEvent,
  at: Date = new Date(),
): Promise<void> {
  const counted = classifyEvent(event);
  if (!counted) return;
  await bumpCounter(tenantId, utcDay(at), counted.metric, counted.activeUser);
}
