import type { AuditLogEntry } from "@/lib/audit-logs";
import type { OperatorRole } from "@/lib/db/schema";

/** The keys that hold a user's private metadata in data the console shows: the wire's and the domain's. */
const PRIVATE_KEYS = new Set(["private_metadata", "privateMetadata"]);

/** Whether `role` may read private metadata (the application's secrets about a user): owners and admins. */
export const readsPrivateMetadata = (role: OperatorRole): boolean => role !== "viewer";

/** What the console says where it left private metadata out. */
export const PRIVATE_METADATA_HIDDEN = "Private metadata is left out: viewers do not see it.";

/** A copy without any private-metadata key, at any depth (plain objects and arrays; other values as they are). */
function withoutPrivate(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPrivate);
  if (value === null || typeof value !== "object") return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !PRIVATE_KEYS.has(key))
      .map(([key, child]) => [key, withoutPrivate(child)]),
  );
}

/**
 * The console's one rule for the data it shows (a user's metadata, webhook event data, audit details):
 * for a role that may not read private metadata (a viewer), a copy without any `private_metadata` key at
 * any depth, wherever the data nests it (`user.*` events carry it under `metadata`); for the others, the
 * value itself. Every page, drawer and export that shows such data goes through here
 * (tests/console/event-data.test.ts checks the console's sources for it).
 */
export function redactForRole<T>(role: OperatorRole, value: T): T {
  return readsPrivateMetadata(role) ? value : (withoutPrivate(value) as T);
}

/**
 * A webhook delivery's body as the console shows it to `role`: the event, its data (redacted) and a
 * placeholder for the token, which is signed at send time and never stored.
 */
export function deliveryBodyView(role: OperatorRole, event: { event: string; data: unknown }): string {
  return JSON.stringify(
    {
      event: event.event,
      token: "<JWT signed with the tenant's key at send time: {evt, data}, valid 5 minutes>",
      data: redactForRole(role, event.data),
    },
    null,
    2,
  );
}

/** An audit log entry as the console's drawer shows it to `role`: every recorded field, details redacted. */
export function auditEntryView(role: OperatorRole, entry: AuditLogEntry): string {
  return JSON.stringify(
    {
      id: entry.id,
      type: entry.type,
      created_at: entry.createdAt.toISOString(),
      actor: entry.actor,
      actor_user_id: entry.actorUserId,
      actor_email: entry.actorEmail,
      error: entry.error,
      ip: entry.ip,
      user_agent: entry.userAgent,
      request_id: entry.requestId,
      details: redactForRole(role, entry.details),
    },
    null,
    2,
  );
}
