import { and, eq, isNull, or, sql } from "drizzle-orm";
import { growingLockInterval, lockSecondsLeft } from "@/lib/rate-limit/growing-lock";
import { executor } from "@/lib/db";
import { passwords, type PasswordRow } from "@/lib/db/schema";

export async function selectPassword(tenantId: string, userId: string): Promise<PasswordRow | undefined> {
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

/** Deletes the user's password row, if any. */
export async function deletePasswordRow(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .delete(passwords)
    .where(and(eq(passwords.tenantId, tenantId), eq(passwords.userId, userId)))
    .returning({ userId: passwords.userId });
  return rows.length === 1;
}

/**
 * Counts an attempt before its password is checked, in one statement: undefined when the user has no
 * password, it is locked, or a run of `every` failures is complete and its lock not yet set. A lock
 * that has run out is lifted by the next attempt (the count goes on, so the next lock lasts longer).
 * Counting first means concurrent guesses cannot overtake a lock: at most `every` are checked per run.
 */
export async function reserveAttempt(
  tenantId: string,
  userId: string,
  every: number,
): Promise<PasswordRow | undefined> {
  const db = await executor();
  const [row] = await db
    .update(passwords)
    .set({ failedAttempts: sql`${passwords.failedAttempts} + 1`, lockedAt: null })
    .where(
      and(
        eq(passwords.tenantId, tenantId),
        eq(passwords.userId, userId),
        or(
          and(
            isNull(passwords.lockedAt),
            sql`(${passwords.failedAttempts} = 0 or ${passwords.failedAttempts} % ${every} <> 0)`,
          ),
          sql`${passwords.lockedAt} + ${growingLockInterval(passwords.failedAttempts, every)} <= clock_timestamp()`,
        ),
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

/** Locks the password when a run of `every` failures is complete; true when this call locked it. */
export async function lockIfExhausted(tenantId: string, userId: string, every: number): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .update(passwords)
    .set({ lockedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(passwords.tenantId, tenantId),
        eq(passwords.userId, userId),
        isNull(passwords.lockedAt),
        sql`${passwords.failedAttempts} > 0 and ${passwords.failedAttempts} % ${every} = 0`,
      ),
    )
    .returning({ userId: passwords.userId });
  return rows.length === 1;
}

/** Whole seconds the user's password stays locked (0 when it is not). */
export async function passwordLockSecondsLeft(
  tenantId: string,
  userId: string,
  every: number,
): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ left: lockSecondsLeft(passwords.lockedAt, passwords.failedAttempts, every) })
    .from(passwords)
    .where(and(eq(passwords.tenantId, tenantId), eq(passwords.userId, userId)));
  return Math.max(0, Number(row?.left ?? 0));
}
