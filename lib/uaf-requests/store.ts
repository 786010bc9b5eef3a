import { and, asc, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { writeWithAuditEvent, type AuditEvent } from "@/lib/audit";
import { executor } from "@/lib/db";
import { userByExternalId } from "@/lib/users/fragments";
import {
  tenants,
  uafRegistrations,
  uafRequests,
  users,
  type UafRegistrationRow,
  type UafRequestRow,
} from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

/** A request row with its user's external id, and the database clock's view of its expiry. */
export interface RequestRecord extends UafRequestRow {
  externalUserId: string;
  deviceName: string | null;
  /** `valid_until <= now()` by the database clock, which all instances share. */
  expired: boolean;
  /** The database's `now()` when read (Unix ms): the verification time. */
  now: number;
}

const databaseClock = sql<number>`(extract(epoch from now()) * 1000)::float8`.mapWith(Number);

const requestColumns = {
  ...getTableColumns(uafRequests),
  externalUserId: sql<string>`coalesce(${users.externalId}, '')`,
  deviceName: uafRegistrations.name,
  expired: sql<boolean>`${uafRequests.validUntil} <= now()`,
  now: databaseClock,
};

/**
 * The user's registrations (all, or those of `deviceIds`, oldest first) and the database clock (Unix ms,
 * which every instance shares: request times come from it), in one statement.
 */
export async function selectRegistrationsAndNow(
  tenantId: string,
  userId: string,
  deviceIds?: readonly string[],
): Promise<{ now: number; registrations: UafRegistrationRow[] }> {
  const db = await executor();
  // The tenant's row is the anchor: the clock comes back even when the user has no registration.
  const rows = await db
    .select({ now: databaseClock, registration: uafRegistrations })
    .from(tenants)
    .leftJoin(
      uafRegistrations,
      and(
        eq(uafRegistrations.tenantId, tenants.id),
        eq(uafRegistrations.userId, userId),
        deviceIds ? inArray(uafRegistrations.id, [...deviceIds]) : undefined,
      ),
    )
    .where(eq(tenants.id, tenantId))
    .orderBy(asc(uafRegistrations.createdAt), asc(uafRegistrations.id));
  if (!rows[0]) throw new Error(`Tenant ${tenantId} vanished`);
  return {
    now: rows[0].now,
    registrations: rows.flatMap((row) => (row.registration ? [row.registration] : [])),
  };
}

export type NewRequest = typeof uafRequests.$inferInsert;

/** Requests are kept this long after `validUntil` (the status stays readable), then swept. */
export const REQUEST_RETENTION_DAYS = 30;
const SWEEP_EVERY = 64;

/** The user with this external id as the requests need them: id, username, and whether locked. */
export interface RequestUser {
  id: string;
  username: string | null;
  externalId: string;
  locked: boolean;
}

/**
 * The user with this external id (undefined when there is none), their registrations (all, or those of
 * `deviceIds`, oldest first) and the database clock, in one statement.
 */
export async function selectUserRegistrationsAndNow(
  tenantId: string,
  externalId: string,
  deviceIds?: readonly string[],
): Promise<{ now: number; user: RequestUser | undefined; registrations: UafRegistrationRow[] }> {
  const db = await executor();
  const user = userByExternalId(tenantId, externalId);
  const rows = await db
    .select({
      now: databaseClock,
      userId: user.id,
      username: user.username,
      locked: user.locked,
      registration: uafRegistrations,
    })
    .from(tenants)
    .leftJoin(
      uafRegistrations,
      and(
        eq(uafRegistrations.tenantId, tenants.id),
        sql`${uafRegistrations.userId} = ${user.id}`,
        deviceIds ? inArray(uafRegistrations.id, [...deviceIds]) : undefined,
      ),
    )
    .where(eq(tenants.id, tenantId))
    .orderBy(asc(uafRegistrations.createdAt), asc(uafRegistrations.id));
  const first = rows[0];
  if (!first) throw new Error(`Tenant ${tenantId} vanished`);
  return {
    now: first.now,
    user: first.userId
      ? { id: first.userId, username: first.username, externalId, locked: first.locked === true }
      : undefined,
    registrations: rows.flatMap((row) => (row.registration ? [row.registration] : [])),
  };
}

/** Inserts the request and records `audit` with it, in one statement. */
export async function insertRequestWithAudit(values: NewRequest, audit: AuditEvent): Promise<void> {
  const db = await executor();
  const insert = db.insert(uafRequests).values(values).returning({ id: uafRequests.id });
  await writeWithAuditEvent(values.tenantId, audit, insert);
}

/** Called after a create commits: one in this many sweeps old requests, outside the create's transaction. */
export async function maybeSweepOldRequests(): Promise<void> {
  if (Math.random() * SWEEP_EVERY < 1) await deleteOldRequests();
}

/** Deletes requests of every tenant whose `validUntil` lies more than the retention period back. */
export async function deleteOldRequests(): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(uafRequests)
    .where(lt(uafRequests.validUntil, sql`now() - make_interval(days => ${REQUEST_RETENTION_DAYS})`))
    .returning({ id: uafRequests.id });
  return rows.length;
}

/**
 * One request of the tenant (another tenant's is not found). `lock` takes a row lock until the
 * surrounding transaction ends, so concurrent validations of one request run one after the other.
 */
export async function findRequest(
  tenantId: string,
  requestId: string,
  options: { lock?: boolean } = {},
): Promise<RequestRecord | undefined> {
  if (!UUID_PATTERN.test(requestId)) return undefined;
  const db = await executor();
  const query = db
    .select(requestColumns)
    .from(uafRequests)
    .innerJoin(users, eq(users.id, uafRequests.userId))
    .leftJoin(uafRegistrations, eq(uafRegistrations.id, uafRequests.deviceId))
    .where(and(eq(uafRequests.tenantId, tenantId), eq(uafRequests.id, requestId)))
    .limit(1);
  const [row] = options.lock ? await query.for("update", { of: uafRequests }) : await query;
  return row;
}

const candidates = alias(uafRegistrations, "candidate");

/**
 * A request with the registrations an answer to it may come from (its user's, or those it names), in
 * one statement: what checking an answer needs. `tenantId` undefined: any tenant's request, only for
 * the app-facing routes, which then check the request's out-of-band token.
 */
export async function findRequestWithCandidates(
  tenantId: string | undefined,
  requestId: string,
): Promise<{ record: RequestRecord; candidates: UafRegistrationRow[] } | undefined> {
  if (!UUID_PATTERN.test(requestId)) return undefined;
  const db = await executor();
  const rows = await db
    .select({ ...requestColumns, candidate: candidates })
    .from(uafRequests)
    .innerJoin(users, eq(users.id, uafRequests.userId))
    .leftJoin(uafRegistrations, eq(uafRegistrations.id, uafRequests.deviceId))
    .leftJoin(
      candidates,
      and(
        eq(candidates.tenantId, uafRequests.tenantId),
        eq(candidates.userId, uafRequests.userId),
        sql`(${uafRequests.deviceIds} is null or ${candidates.id} = any(${uafRequests.deviceIds}))`,
      ),
    )
    .where(and(tenantId ? eq(uafRequests.tenantId, tenantId) : undefined, eq(uafRequests.id, requestId)))
    .orderBy(asc(candidates.createdAt), asc(candidates.id));
  const first = rows[0];
  if (!first) return undefined;
  const { candidate: _candidate, ...record } = first;
  return {
    record,
    candidates: rows.flatMap((row) => (row.candidate ? [row.candidate] : [])),
  };
}

/** Any tenant's request by id: only for the app-facing routes, which then check the request's token. */
export async function findRequestOfAnyTenant(requestId: string): Promise<RequestRecord | undefined> {
  if (!UUID_PATTERN.test(requestId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select(requestColumns)
    .from(uafRequests)
    .innerJoin(users, eq(users.id, uafRequests.userId))
    .leftJoin(uafRegistrations, eq(uafRegistrations.id, uafRequests.deviceId))
    .where(eq(uafRequests.id, requestId))
    .limit(1);
  return row;
}

export type RequestOutcome =
  | { status: "OK"; deviceId: string | null }
  | { status: "FAILED"; errorCode: number; errorReason: string }
  | { status: "INVALIDATED" };

/**
 * Moves a PENDING request to its final state; a request that is no longer PENDING is left alone
 * (false). The status therefore changes at most once.
 */
export async function completeRequest(
  tenantId: string,
  requestId: string,
  outcome: RequestOutcome,
): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(uafRequests)
    // The out-of-band token dies with the request: it answers at most once.
    .set({ ...outcome, oobTokenHash: null, completedAt: sql`now()` })
    .where(
      and(
        eq(uafRequests.tenantId, tenantId),
        eq(uafRequests.id, requestId),
        eq(uafRequests.status, "PENDING"),
      ),
    )
    .returning({ id: uafRequests.id });
  return rows.length === 1;
}

/**
 * Claims a request that is still PENDING, unexpired and (with `oobTokenHash`) still answers to the token
 * that was checked, moving it to `outcome`, and records `audit` with it, in one statement: false (no
 * change, no record) when another answer, a cancellation, the clock or a newer app link came first.
 */
export async function claimRequest(
  tenantId: string,
  requestId: string,
  outcome: RequestOutcome,
  checkedOobTokenHash: string | null | undefined,
  audit: AuditEvent | undefined,
): Promise<boolean> {
  const db = await executor();
  const update = db
    .update(uafRequests)
    .set({ ...outcome, oobTokenHash: null, completedAt: sql`now()` })
    .where(
      and(
        eq(uafRequests.tenantId, tenantId),
        eq(uafRequests.id, requestId),
        eq(uafRequests.status, "PENDING"),
        sql`${uafRequests.validUntil} > now()`,
        checkedOobTokenHash === undefined
          ? undefined
          : checkedOobTokenHash === null
            ? sql`${uafRequests.oobTokenHash} is null`
            : eq(uafRequests.oobTokenHash, checkedOobTokenHash),
      ),
    )
    .returning({ id: uafRequests.id });
  return (audit ? await writeWithAuditEvent(tenantId, audit, update) : await update).length === 1;
}

/**
 * Replaces the outcome of a request this transaction claimed (OK → FAILED when what went with the
 * claim could not be stored), with `audit`, in one statement.
 */
export async function replaceClaimedOutcome(
  tenantId: string,
  requestId: string,
  outcome: RequestOutcome,
  audit: AuditEvent,
): Promise<void> {
  const db = await executor();
  const update = db
    .update(uafRequests)
    .set({ deviceId: null, errorCode: null, errorReason: null, ...outcome })
    .where(and(eq(uafRequests.tenantId, tenantId), eq(uafRequests.id, requestId)))
    .returning({ id: uafRequests.id });
  await writeWithAuditEvent(tenantId, audit, update);
}

/**
 * Stores a new out-of-band token hash on a request whose token may still be used (PENDING, or a DEREG
 * that is OK, and not past `validUntil`), with `audit`, in one statement; its `validUntil`, or undefined
 * when there is no such request.
 */
export async function replaceUsableOobTokenHash(
  tenantId: string,
  requestId: string,
  hash: string,
  audit: AuditEvent,
): Promise<Date | undefined> {
  if (!UUID_PATTERN.test(requestId)) return undefined;
  const db = await executor();
  const update = db
    .update(uafRequests)
    .set({ oobTokenHash: hash })
    .where(
      and(
        eq(uafRequests.tenantId, tenantId),
        eq(uafRequests.id, requestId),
        sql`${uafRequests.validUntil} > now()`,
        sql`(${uafRequests.status} = 'PENDING' or (${uafRequests.operation} = 'DEREG' and ${uafRequests.status} = 'OK'))`,
      ),
    )
    .returning({
      validUntilMs: sql<number>`(extract(epoch from ${uafRequests.validUntil}) * 1000)::float8`.as(
        "valid_until_ms",
      ),
    });
  const [row] = await writeWithAuditEvent<{ valid_until_ms: number | string }>(tenantId, audit, update);
  return row ? new Date(Math.round(Number(row.valid_until_ms))) : undefined;
}

export async function setOobTokenHash(
  tenantId: string,
  requestId: string,
  hash: string | null,
): Promise<void> {
  const db = await executor();
  await db
    .update(uafRequests)
    .set({ oobTokenHash: hash })
    .where(and(eq(uafRequests.tenantId, tenantId), eq(uafRequests.id, requestId)));
}

// ---------------------------------------------------------------------------------------------------
// Registrations

export async function selectRegistrations(
  tenantId: string,
  userId: string,
  deviceIds?: readonly string[],
): Promise<UafRegistrationRow[]> {
  const db = await executor();
  return db
    .select()
    .from(uafRegistrations)
    .where(
      and(
        eq(uafRegistrations.tenantId, tenantId),
        eq(uafRegistrations.userId, userId),
        deviceIds ? inArray(uafRegistrations.id, [...deviceIds]) : undefined,
      ),
    )
    .orderBy(asc(uafRegistrations.createdAt), asc(uafRegistrations.id));
}

export async function findRegistration(
  tenantId: string,
  deviceId: string,
): Promise<UafRegistrationRow | undefined> {
  if (!UUID_PATTERN.test(deviceId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select()
    .from(uafRegistrations)
    .where(and(eq(uafRegistrations.tenantId, tenantId), eq(uafRegistrations.id, deviceId)))
    .limit(1);
  return row;
}

/** Stores a new registration; undefined when the tenant already has this (AAID, KeyID). */
export async function insertRegistration(
  values: typeof uafRegistrations.$inferInsert,
): Promise<UafRegistrationRow | undefined> {
  const db = await executor();
  const [row] = await db.insert(uafRegistrations).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Stores the new sign counter if the stored one is still the one the assertion was checked against
 * (compare-and-set): of two assertions racing with the same counter only one wins. With `audit`, the
 * record is written by the same statement (nothing when the counter moved meanwhile).
 */
export async function advanceSignCounter(
  tenantId: string,
  deviceId: string,
  expected: number,
  next: number,
  audit?: AuditEvent,
): Promise<boolean> {
  const db = await executor();
  const update = db
    .update(uafRegistrations)
    .set({ signCounter: next, lastUsedAt: sql`now()` })
    .where(
      and(
        eq(uafRegistrations.tenantId, tenantId),
        eq(uafRegistrations.id, deviceId),
        eq(uafRegistrations.signCounter, expected),
      ),
    )
    .returning({ id: uafRegistrations.id });
  const rows = audit ? await writeWithAuditEvent(tenantId, audit, update) : await update;
  return rows.length === 1;
}

export async function renameRegistration(tenantId: string, deviceId: string, name: string): Promise<boolean> {
  if (!UUID_PATTERN.test(deviceId)) return false;
  const db = await executor();
  const rows = await db
    .update(uafRegistrations)
    .set({ name })
    .where(and(eq(uafRegistrations.tenantId, tenantId), eq(uafRegistrations.id, deviceId)))
    .returning({ id: uafRegistrations.id });
  return rows.length === 1;
}

export async function deleteRegistrations(
  tenantId: string,
  userId: string,
  deviceIds: readonly string[],
): Promise<UafRegistrationRow[]> {
  if (deviceIds.length === 0) return [];
  const db = await executor();
  return db
    .delete(uafRegistrations)
    .where(
      and(
        eq(uafRegistrations.tenantId, tenantId),
        eq(uafRegistrations.userId, userId),
        inArray(uafRegistrations.id, [...deviceIds]),
      ),
    )
    .returning();
}
