import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { passcodes, type PasscodeRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

/**
 * A passcode with its state by the database clock. `clock_timestamp()`, not `now()`: a transaction
 * that waited for a row lock must see the time after the wait (a code replaced meanwhile is expired).
 */
export interface PasscodeState extends PasscodeRow {
  /** Whole seconds until it expires; 0 or less once expired. */
  secondsLeft: number;
}

const secondsLeft = sql<number>`ceil(extract(epoch from (${passcodes.expiresAt} - clock_timestamp())))::int`;
const withState = { row: passcodes, secondsLeft: secondsLeft.mapWith(Number) };
const toState = ({ row, secondsLeft }: { row: PasscodeRow; secondsLeft: number }): PasscodeState => ({
  ...row,
  secondsLeft,
});

export async function insertPasscode(
  values: Omit<typeof passcodes.$inferInsert, "expiresAt" | "createdAt"> & { ttlSeconds: number },
): Promise<PasscodeRow> {
  const { ttlSeconds, ...rest } = values;
  const db = await executor();
  const [row] = await db
    .insert(passcodes)
    .values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .returning();
  return row!;
}

/**
 * Serialises code changes of one address until the transaction ends (a transaction-level advisory lock
 * on tenant and address): of parallel sends, each sees the codes the others committed.
 */
export async function lockAddressCodes(tenantId: string, address: string): Promise<void> {
  const db = await executor();
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`passcode:${tenantId}:${address}`}, 0))`,
  );
}

/** The live codes (not used, not expired) one requester asked for the address, locked until the transaction ends. */
export async function liveCodesForAddress(
  tenantId: string,
  address: string,
  requester: string,
): Promise<PasscodeState[]> {
  const db = await executor();
  const rows = await db
    .select(withState)
    .from(passcodes)
    .where(
      and(
        eq(passcodes.tenantId, tenantId),
        eq(passcodes.address, address),
        eq(passcodes.requester, requester),
        isNull(passcodes.usedAt),
        sql`${passcodes.expiresAt} > clock_timestamp()`,
      ),
    )
    .for("update");
  return rows.map(toState);
}

/** The user a code was sent to, read without a lock (to lock the user first). */
export async function passcodeUserId(tenantId: string, id: string): Promise<string | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const db = await executor();
  const [found] = await db
    .select({ userId: passcodes.userId })
    .from(passcodes)
    .where(and(eq(passcodes.tenantId, tenantId), eq(passcodes.id, id)))
    .limit(1);
  return found?.userId ?? undefined;
}

/** One code by id, locked until the transaction ends. */
export async function lockPasscode(tenantId: string, id: string): Promise<PasscodeState | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const db = await executor();
  const [found] = await db
    .select(withState)
    .from(passcodes)
    .where(and(eq(passcodes.tenantId, tenantId), eq(passcodes.id, id)))
    .limit(1)
    .for("update");
  return found ? toState(found) : undefined;
}

/** Ends codes now (a newer one replaces them); their failure counts stay for the next one to carry. */
export async function expirePasscodes(tenantId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const db = await executor();
  await db
    .update(passcodes)
    .set({ expiresAt: sql`least(${passcodes.expiresAt}, clock_timestamp())` })
    .where(and(eq(passcodes.tenantId, tenantId), inArray(passcodes.id, ids)));
}

/** Counts one wrong code; returns the new count. */
export async function recordFailedAttempt(tenantId: string, id: string): Promise<number> {
  const db = await executor();
  const [row] = await db
    .update(passcodes)
    .set({ failedAttempts: sql`${passcodes.failedAttempts} + 1` })
    .where(and(eq(passcodes.tenantId, tenantId), eq(passcodes.id, id)))
    .returning({ failedAttempts: passcodes.failedAttempts });
  return row?.failedAttempts ?? 0;
}

/** Marks a code used; false when it was used already (single use). */
export async function markPasscodeUsed(tenantId: string, id: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(passcodes)
    .set({ usedAt: sql`clock_timestamp()` })
    .where(and(eq(passcodes.tenantId, tenantId), eq(passcodes.id, id), isNull(passcodes.usedAt)))
    .returning({ id: passcodes.id });
  return rows.length === 1;
}

/**
 * Keeps an address's codes when the address row goes (deleted, or claimed by another user): the rows
 * lose their email (so they can no longer be finalized) but keep the address and failure count, so
 * deleting and re-adding an address does not reset the attempt limit.
 */
export async function updatePasscodesDetached(tenantId: string, emailId: string): Promise<void> {
  const db = await executor();
  await db
    .update(passcodes)
    .set({ emailId: null })
    .where(and(eq(passcodes.tenantId, tenantId), eq(passcodes.emailId, emailId)));
}

/** Deletes codes that expired over a day ago (of every tenant): they no longer carry anything. */
export async function sweepOldPasscodes(): Promise<number> {
  const db = await executor();
  const rows = await db
    .delete(passcodes)
    .where(lt(passcodes.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: passcodes.id });
  return rows.length;
}
