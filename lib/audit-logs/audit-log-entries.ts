import type { AuditLogRow } from "@/lib/db/schema";
import { findEmailByAddress, primaryAddressesOf, userIdsByAddressFragment } from "@/lib/emails";
import { ValidationFailed } from "@/lib/errors";
import type { AuditLogSelection } from "@/lib/audit";

/** What the admin API filters a tenant's audit log by (Hanko's `GET /audit_logs` query). */
export interface AuditLogFilter {
  /** Events created at or after this instant. */
  startTime?: Date;
  /** Events created before this instant. */
  endTime?: Date;
  /** Any of these: an exact type (`passkey.login.succeeded`) or a prefix (`passkey.*`: every `passkey.…`). */
  types?: string[];
  /** Events whose actor is this user id. */
  actorUserId?: string;
  /** Events whose actor is the user holding this address today (lib/emails). */
  actorEmail?: string;
  /** Events from this client IP (exact); {@link NO_SOURCE_IP}: events without one. */
  ip?: string;
  /** Free text, case-insensitive: type, actor, IP, user agent, request id, details, or the actor's addresses. */
  q?: string;
}

/** One event as the admin API shows it. */
export interface AuditLogEntry {
  id: string;
  type: string;
  /** What went wrong, for failure records: the details' reason (lib/audit failureDetails) or code. */
  error: string | null;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
  /** Who acted, as recorded: a user id, `api_key:<id>`, `operator:<id>`, `cli` or `system`; null when none. */
  actor: string | null;
  /** The actor when it is a user (a UUID); API keys (`api_key:<id>`), `cli` and `system` are not. */
  actorUserId: string | null;
  /** That user's primary address today (not at the time of the event); null when none. */
  actorEmail: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The client IP the admin API shows for an event recorded without one (CLI and system events): Hanko's
 * `AuditLog` schema requires `meta_source_ip` to be an IP address, and 0.0.0.0 ("no address") is one no
 * client connects from, so it never stands for a real request. The filter reads it back: `ip: NO_SOURCE_IP`
 * selects the events without a client IP.
 */
export const NO_SOURCE_IP = "0.0.0.0";

/** `<segment>(.<segment>)*`, optionally ending in `.*` for a prefix match. */
const TYPE_FILTER = /^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*(\.\*)?$/;
const MAX_TYPES = 20;
/** How many users an address fragment in `q` may stand for; beyond that, the rest are not searched. */
const MAX_TEXT_ACTORS = 100;
const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Types and prefixes of a `type` filter; ValidationFailed names a malformed one. */
function typeFilter(types: string[]): Pick<AuditLogSelection, "types" | "typePrefixes"> {
  if (types.length > MAX_TYPES) throw new ValidationFailed([`query.type: at most ${MAX_TYPES} types`]);
  const bad = types.find((type) => type.length > 100 || !TYPE_FILTER.test(type));
  if (bad !== undefined) {
    throw new ValidationFailed([
      `query.type: ${JSON.stringify(bad.slice(0, 100))} is not an event type (a.b.c) or a prefix (a.b.*)`,
    ]);
  }
  return {
    types: types.filter((type) => !type.endsWith(".*")),
    typePrefixes: types.filter((type) => type.endsWith(".*")).map((type) => type.slice(0, -1)),
  };
}

/**
 * The store's selection for a filter: an address becomes the id of the user holding it (one indexed
 * look-up; no such user: nothing matches), free text also the users whose address contains it.
 */
export async function selectionOf(tenantId: string, filter: AuditLogFilter): Promise<AuditLogSelection> {
  if (filter.startTime && filter.endTime && filter.startTime >= filter.endTime) {
    throw new ValidationFailed(["query.end_time: must be after start_time"]);
  }
  const selection: AuditLogSelection = {
    from: filter.startTime,
    until: filter.endTime,
    ...typeFilter(filter.types ?? []),
    ip: filter.ip === NO_SOURCE_IP ? null : filter.ip,
  };
  if (filter.actorUserId !== undefined) selection.actors = [filter.actorUserId];
  if (filter.actorEmail !== undefined) {
    const holder = (await findEmailByAddress(tenantId, filter.actorEmail.trim().toLowerCase()))?.userId;
    const actors = holder ? [holder] : [];
    selection.actors = selection.actors ? actors.filter((id) => selection.actors!.includes(id)) : actors;
  }
  if (filter.q !== undefined && filter.q !== "") {
    selection.text = filter.q;
    selection.textActors = await userIdsByAddressFragment(tenantId, filter.q, MAX_TEXT_ACTORS);
  }
  return selection;
}

/**
 * What went wrong, for a failure record (`*.failed`, `*.rejected`, or details with a `status`: see
 * failureDetails): the details' `reason`, else their `code`; null for any other event.
 */
function errorOf(row: AuditLogRow): string | null {
  const { reason, code, status } = row.details;
  const failure = typeof status === "number" || /\.(failed|rejected)$/.test(row.type);
  if (!failure) return null;
  if (typeof reason === "string" && reason !== "") return reason;
  return typeof code === "string" || typeof code === "number" ? String(code) : null;
}

/** The rows as entries, with each user actor's primary address (one query for all of them). */
export async function entriesOf(tenantId: string, rows: AuditLogRow[]): Promise<AuditLogEntry[]> {
  const userIds = [...new Set(rows.map((row) => row.actor).filter((actor) => actor && USER_ID.test(actor)))];
  const addresses = await primaryAddressesOf(tenantId, userIds as string[]);
  return rows.map((row) => {
    const actorUserId = row.actor && USER_ID.test(row.actor) ? row.actor : null;
    return {
      id: row.id,
      type: row.type,
      error: errorOf(row),
      requestId: row.requestId,
      ip: row.ip,
      userAgent: row.userAgent,
      actor: row.actor,
      actorUserId,
      actorEmail: (actorUserId && addresses.get(actorUserId)) ?? null,
      details: row.details,
      createdAt: row.createdAt,
    };
  });
}
