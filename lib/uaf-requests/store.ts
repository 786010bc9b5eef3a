import { and, asc, eq, getTableColumns, inArray, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
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

const requestColumns = {
  ...getTableColumns(uafRequests),
  externalUserId: sql<string>`coalesce(${users.externalId}, '')`,
  deviceName: uafRegistrations.name,
  expired: sql<boolean>`${uafRequests.validUntil} <= now()`,
  now: sql<number>`(extract(epoch from now()) * 1000)::float8`.mapWith(Number),
};

/** The database clock (Unix ms), which every instance shares: request times come from it. */
export async function databaseNow(tenantId: string): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ now: sql<number>`(extract(epoch from now()) * 1000)::float8`.mapWith(Number) })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw new Error(`Tenant ${tenantId} vanished`);
  return row.now;
}

export type NewRequest = typeof uafRequests.$inferInsert;

/** Requests are kept this long after `validUntil` (the status stays readable), then swept. */
export const REQUEST_RETENTION_DAYS = 30;
const SWEEP_EVERY = 64;

export async function insertRequest(values: NewRequest): Promise<void> {
  const db = await executor();
  await db.insert(uafRequests).values(values);
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

/** Any tenant's request by id: only for the app-facing routes, which then check the request's token. */
export async function findRequestTenant(requestId: string): Promise<string | undefined> {
  if (!UUID_PATTERN.test(requestId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select({ tenantId: uafRequests.tenantId })
    .from(uafRequests)
    .where(eq(uafRequests.id, requestId))
    .limit(1);
  return row?.tenantId;
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
 * (compare-and-set): of two assertions racing with the same counter only one wins.
 */
export async function advanceSignCounter(
  tenantId: string,
  deviceId: string,
  expected: number,
  next: number,
): Promise<boolean> {
  const db = await executor();
  const rows = await db
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
