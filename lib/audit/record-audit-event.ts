// The rollup's recorder only (not the module's index, whose queries import modules that import this one).
import { classifyEvent, recordAnalytics } from "@/lib/analytics/record";
import { transaction } from "@/lib/db";
import type { AuditLogRow } from "@/lib/db/schema";
import { countAuditEvent } from "@/lib/metrics";
import { insertAuditLog } from "./store";

export interface AuditEvent {
  /** Dotted event name, `<area>.<subject>.<outcome>`: `passkey.login.succeeded`, `api_key.revoked`. */
  type: string;
  /** Who acted: a user id, `api_key:<id>`, `cli` or `system`. */
  actor?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
  /** Set when the request used an impersonation session: its `impersonated_by`, added to `details`. */
  impersonatedBy?: string | null;
}

/** Who and where an event comes from; route handlers build it from the request. */
export type AuditContext = Pick<AuditEvent, "actor" | "ip" | "userAgent" | "requestId" | "impersonatedBy">;

/** Bounds on what one entry may carry, so a hostile client cannot bloat the log. */
const MAX_TEXT = 512;
const clip = (value: string | null | undefined) => (value == null ? null : value.slice(0, MAX_TEXT));

/**
 * Appends one event to the tenant's audit log. Call it for every success and failure of an auth event.
 * A sign-up or login also bumps the console's daily counters (lib/analytics), in the same transaction.
 */
export async function recordAuditEvent(tenantId: string, event: AuditEvent): Promise<AuditLogRow> {
  countAuditEvent(event.type); // sesame_ceremonies_total (lib/metrics)
  const counted = classifyEvent(event);
  if (!counted) return insertEvent(tenantId, event);
  return transaction(async () => {
    const row = await insertEvent(tenantId, event);
    await recordAnalytics(tenantId, counted, row.createdAt);
    return row;
  });
}

function insertEvent(tenantId: string, event: AuditEvent): Promise<AuditLogRow> {
  return insertAuditLog({
    tenantId,
    type: event.type,
    actor: clip(event.actor),
    ip: clip(event.ip),
    userAgent: clip(event.userAgent),
    requestId: clip(event.requestId),
    details: event.impersonatedBy
      ? { ...event.details, impersonated_by: event.impersonatedBy }
      : (event.details ?? {}),
  });
}
