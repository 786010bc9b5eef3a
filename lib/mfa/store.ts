import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { otpSecrets, type OtpSecretRow } from "@/lib/db/schema";
import { lockSecondsLeft } from "@/lib/rate-limit/growing-lock";

export async function selectOtpSecret(tenantId: string, userId: string): Promise<OtpSecretRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(otpSecrets)
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .limit(1);
  return row;
}

/** Sets (or replaces) the user's sealed TOTP secret. */
export async function upsertOtpSecret(tenantId: string, userId: string, sealed: string): Promise<void> {
  const db = await executor();
  await db
    .insert(otpSecrets)
    .values({ tenantId, userId, secret: sealed })
    .onConflictDoUpdate({
      target: otpSecrets.userId,
      set: { secret: sealed, lastUsedStep: null, failedAttempts: 0, lockedAt: null },
    });
}

export async function deleteOtpSecret(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const deleted = await db
    .delete(otpSecrets)
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .returning({ userId: otpSecrets.userId });
  return deleted.length > 0;
}

/**
 * Records that the code of time step `step` was used, if no code of this or a later step was: one
 * statement, so of two requests with the same code only one is accepted.
 */
export async function useOtpStep(tenantId: string, userId: string, step: number): Promise<boolean> {
  const db = await executor();
  const updated = await db
    .update(otpSecrets)
    .set({ lastUsedStep: step, failedAttempts: 0, lockedAt: null })
    .where(
      and(
        eq(otpSecrets.tenantId, tenantId),
        eq(otpSecrets.userId, userId),
        or(isNull(otpSecrets.lastUsedStep), lt(otpSecrets.lastUsedStep, step)),
      ),
    )
    .returning({ userId: otpSecrets.userId });
  return updated.length > 0;
}

/**
 * Counts one wrong code of the user's app, in one statement, and locks the codes when it completes a
 * run of `every`; returns the consecutive failures and whether this one locked.
 */
export async function recordOtpFailure(
  tenantId: string,
  userId: string,
  every: number,
): Promise<{ failures: number; locked: boolean }> {
  const db = await executor();
  const next = sql`${otpSecrets.failedAttempts} + 1`;
  const [row] = await db
    .update(otpSecrets)
    .set({
      failedAttempts: next,
      lockedAt: sql`case when (${next}) % ${every} = 0 then clock_timestamp() else ${otpSecrets.lockedAt} end`,
    })
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .returning({ failedAttempts: otpSecrets.failedAttempts });
  const failures = row?.failedAttempts ?? 0;
  return { failures, locked: failures > 0 && failures % every === 0 };
}

/** The user's secret row, and how many seconds a run of wrong codes keeps it locked (0 or less: none). */
export async function findOtpSecretWithLock(
  tenantId: string,
  userId: string,
  every: number,
): Promise<{ row: OtpSecretRow; lockSecondsLeft: number } | undefined> {
  const db = await executor();
  const [found] = await db
    .select({
      row: otpSecrets,
      lockSecondsLeft: lockSecondsLeft(otpSecrets.lockedAt, otpSecrets.failedAttempts, every).mapWith(Number),
    })
    .from(otpSecrets)
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .limit(1);
  return found;
}
