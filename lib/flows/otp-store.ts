import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { otpSecrets, type OtpSecretRow } from "@/lib/db/schema";

export async function findOtpSecret(tenantId: string, userId: string): Promise<OtpSecretRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(otpSecrets)
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .limit(1);
  return row;
}

export async function hasOtpSecret(tenantId: string, userId: string): Promise<boolean> {
  return (await findOtpSecret(tenantId, userId)) !== undefined;
}

/** Sets (or replaces) the user's sealed TOTP secret. */
export async function upsertOtpSecret(tenantId: string, userId: string, sealed: string): Promise<void> {
  const db = await executor();
  await db
    .insert(otpSecrets)
    .values({ tenantId, userId, secret: sealed })
    .onConflictDoUpdate({
      target: otpSecrets.userId,
      set: { secret: sealed, lastUsedStep: null, failedAttempts: 0 },
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
    .set({ lastUsedStep: step, failedAttempts: 0 })
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

/** Counts one wrong code of the user's app, in one statement; returns the consecutive failures. */
export async function recordOtpFailure(tenantId: string, userId: string): Promise<number> {
  const db = await executor();
  const [row] = await db
    .update(otpSecrets)
    .set({ failedAttempts: sql`${otpSecrets.failedAttempts} + 1` })
    .where(and(eq(otpSecrets.tenantId, tenantId), eq(otpSecrets.userId, userId)))
    .returning({ failedAttempts: otpSecrets.failedAttempts });
  return row?.failedAttempts ?? 0;
}
