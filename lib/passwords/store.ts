import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { passwords, type PasswordRow } from "@/lib/db/schema";

export async function findPassword(tenantId: string, userId: string): Promise<PasswordRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(passwords)
    .where(and(eq(passwords.tenantId, tenantId), eq(passwords.userId, userId)))
    .limit(1);
  return row;
}

/** Creates or replaces the user's password; a new password also clears the failure count and the lock. */
export async function upsertPassword(tenantId: string, userId: string, hash: string): Promise<void> {
  const db = await executor();
  await db
    .insert(passwords)
    .values({ tenantId, userId, hash })
    .onConflictDoUpdate({
      target: passwords.userId,
      set: { hash, failedAttempts: 0, lockedAt: null, updatedAt: sql`now()` },
      setWhere: eq(passwords.tenantId, tenantId),
    });
}

/**
 * Counts an attempt before its password is checked, in one statement: undefined when the user has no
 * password or it is locked (or `max` attempts are already counted). Counting first means concurrent
 * guesses cannot overtake the lock: at most `max` are ever checked between two successes.
 */
export async function reserveAttempt(
  tenantId: string,
  userId: string,
  max: number,
): Promise<PasswordRow | undefined> {
  const db = await executor();
  const [row] = await db
    .update(passwords)
    .set({ failedAttempts: sql`${passwords.failedAttempts} + 1` })
    .where(
      and(
        eq(passwords.tenantId, tenantId),
        eq(passwords.userId, userId),
        isNull(passwords.lockedAt),
        lt(passwords.failedAttempts, max),
      ),
    )
    .returning();
  return row;
}

/** A correct password: the consecutive failures start again from zero (unless locked meanwhile). */
export async function clearAttempts(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(passwords)
    .set({ failedAttempts: 0 })
    .where(and(eq(passwords.tenantId, tenantId), eq(passwords.userId, userId), isNull(passwords.lockedAt)))
    .returning({ userId: passwords.userId });
  return rows.length === 1;
}

/** Locks the password when `max` failures are counted; true when this call locked it. */
export async function lockIfExhausted(tenantId: string, userId: string, max: number): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(passwords)
    .set({ lockedAt: sql`now()` })
    .where(
      and(
        eq(passwords.tenantId, tenantId),
        eq(passwords.userId, userId),
        isNull(passwords.lockedAt),
        sql`${passwords.failedAttempts} >= ${max}`,
      ),
    )
    .returning({ userId: passwords.userId });
  return rows.length === 1;
}
