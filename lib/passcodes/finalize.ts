import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { PasscodeRow } from "@/lib/db/schema";
import type { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { MAX_FAILED_ATTEMPTS, codeMatches } from "./code";
import { passcodeErrors } from "./errors";
import {
  lockPasscode,
  markPasscodeUsed,
  passcodeUserId,
  recordFailedAttempt,
  type PasscodeState,
  updatePasscodesDetached,
} from "./store";

export interface CodeInput {
  id: string;
  code: string;
}

export interface CheckedPasscode {
  id: string;
  address: string;
  userId: string | null;
  emailId: string | null;
  purpose: PasscodeRow["purpose"];
}

/**
 * Checks a code a flow sent (`sendCode`) and uses it up; what follows (a session, a verified address)
 * is the flow's. The same limits as `finalizePasscode`: single use, expiry, at most 3 wrong attempts
 * per address, each wrong attempt committed before the failure is thrown.
 */
export async function checkPasscode(
  tenant: Tenant,
  input: CodeInput,
  context: AuditContext,
): Promise<CheckedPasscode> {
  return auditFailures(tenant.id, "passcode.check", context, async () => {
    const outcome = await transaction(async (): Promise<{ ok: CheckedPasscode } | { error: AppError }> => {
      const row = await lockPasscode(tenant.id, input.id);
      if (!row) return { error: passcodeErrors.notFound() };
      const unusable = unusableReason(row);
      if (unusable) return { error: unusable };
      const refused = await useCode(tenant.id, row, input.code);
      if (refused) return { error: refused };
      const checked = {
        id: row.id,
        address: row.address,
        userId: row.userId,
        emailId: row.emailId,
        purpose: row.purpose,
      };
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "passcode.check.succeeded",
        details: { passcodeId: row.id, userId: row.userId, purpose: row.purpose },
      });
      return { ok: checked };
    });
    if ("error" in outcome) throw outcome.error;
    return outcome.ok;
  });
}

/** Why a locked passcode row can no longer be checked (used, out of attempts, expired), if it cannot. */
export function unusableReason(row: { usedAt: Date | null; failedAttempts: number; secondsLeft: number }) {
  if (row.usedAt) return passcodeErrors.used();
  if (row.failedAttempts >= MAX_FAILED_ATTEMPTS) return passcodeErrors.maxAttempts();
  if (row.secondsLeft <= 0) return passcodeErrors.expired();
  return undefined;
}

/**
 * Compares the code and uses the row up. A wrong code is counted (the caller's transaction commits the
 * count with the refusal it returns); the last allowed failure answers "attempts exceeded".
 */
export async function useCode(
  tenantId: string,
  row: { id: string; codeHash: string },
  code: string,
): Promise<AppError | undefined> {
  if (!codeMatches(tenantId, row.id, code, row.codeHash)) {
    const failed = await recordFailedAttempt(tenantId, row.id);
    return failed >= MAX_FAILED_ATTEMPTS
      ? passcodeErrors.maxAttempts()
      : passcodeErrors.invalid(MAX_FAILED_ATTEMPTS - failed);
  }
  if (!(await markPasscodeUsed(tenantId, row.id))) return passcodeErrors.used();
  return undefined;
}

/** The user a code was sent to (read before taking the user's lock, so locks are taken in one order). */
export async function passcodeOwner(tenantId: string, id: string): Promise<string | undefined> {
  return passcodeUserId(tenantId, id);
}

/** Locks a code for checking (`useCode`) until the transaction ends; undefined when there is none. */
export async function lockCode(tenantId: string, id: string): Promise<PasscodeState | undefined> {
  return lockPasscode(tenantId, id);
}

/**
 * The address is gone (removed, or taken by another user): its codes lose their email, so they can no
 * longer be finalized, but keep the address and failure count, so deleting and re-adding an address
 * does not reset the attempt limit.
 */
export function detachPasscodes(tenantId: string, emailId: string): Promise<void> {
  return updatePasscodesDetached(tenantId, emailId);
}
