import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { PasscodeRow } from "@/lib/db/schema";
import { selectUserEmails } from "@/lib/emails";
import { verifyEmail } from "@/lib/accounts";
import type { AppError } from "@/lib/errors";
import { checkSessionToken, issueSession, type AuthMethod, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, lockUser } from "@/lib/users";
import { MAX_FAILED_ATTEMPTS, codeMatches } from "./code";
import { passcodeErrors } from "./errors";
import { needsSession, passcodeInfo, type PasscodeInfo } from "./initialize";
import { lockPasscode, markPasscodeUsed, passcodeUserId, recordFailedAttempt } from "./store";

export interface FinalizePasscodeInput {
  id: string;
  code: string;
}

export interface FinalizedPasscode {
  passcode: PasscodeInfo;
  session: IssuedSession;
}

type Outcome = { ok: FinalizedPasscode } | { error: AppError };

/**
 * `POST /passcode/login/finalize`: checks the code and logs its user in (amr `otp`), unless the user
 * has a second factor the tenant enforces (403 `SECOND_FACTOR_REQUIRED`: the flow API asks for it; the
 * code is then not used up and nothing changes); the address is
 * verified by it (and becomes primary if the user has none). Single use; a wrong code counts against
 * the address (at most 3). Failures are committed before they are thrown, so a wrong attempt counts
 * even though the request fails.
 */
export async function finalizePasscode(
  tenant: Tenant,
  input: FinalizePasscodeInput,
  sessionToken: string | undefined,
  context: AuditContext,
): Promise<FinalizedPasscode> {
  return auditFailures(tenant.id, "passcode.login.finalize", context, async () => {
    const caller = sessionToken ? await checkSessionToken(tenant, sessionToken) : undefined;
    const outcome = await transaction(async (): Promise<Outcome> => {
      // The user before the code, in the order removeEmail takes them, so the two never wait on each
      // other (verifyEmail below takes the user lock again, which the transaction already holds).
      const owner = await passcodeUserId(tenant.id, input.id);
      if (owner) await lockUser(tenant.id, owner);
      const row = await lockPasscode(tenant.id, input.id);
      if (!row || !row.emailId || !row.userId) return { error: passcodeErrors.notFound() };
      const unusable = unusableReason(row);
      if (unusable) return { error: unusable };
      const user = await findUser(tenant.id, row.userId);
      const emails = user ? await selectUserEmails(tenant.id, user.id) : [];
      const email = emails.find((candidate) => candidate.id === row.emailId);
      if (!user || !email) return { error: passcodeErrors.notFound() };
      if (caller && caller.user.id !== user.id) return { error: passcodeErrors.otherUsersSession() };
      if (!caller && needsSession(emails, email)) return { error: passcodeErrors.sessionNeeded() };

      const refused = await useCode(tenant.id, row, input.code);
      if (refused) return { error: refused };
      // Verified, and primary if the user has none. The account's first proven address, proven without
      // its session: what was set up before may be a stranger's who signed up with this address
      // (removed before the session below is issued).
      await verifyEmail(tenant, user.id, email.id, { context, withSession: caller !== undefined });
      // One factor: refused (403) when the user has a second factor the tenant enforces. A session of
      // the same user verifying another address keeps the factors it was started with.
      const amr = [...new Set<AuthMethod>([...((caller?.claims.amr ?? []) as AuthMethod[]), "otp"])];
      const session = await issueSession(tenant, user, amr, context);
      await recordAuditEvent(tenant.id, {
        ...context,
        actor: user.id,
        type: "passcode.login.finalize.succeeded",
        details: { userId: user.id, passcodeId: row.id, purpose: row.purpose, sessionId: session.session.id },
      });
      return { ok: { passcode: passcodeInfo(row), session } };
    });
    if ("error" in outcome) throw outcome.error;
    return outcome.ok;
  });
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
  input: FinalizePasscodeInput,
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
function unusableReason(row: { usedAt: Date | null; failedAttempts: number; secondsLeft: number }) {
  if (row.usedAt) return passcodeErrors.used();
  if (row.failedAttempts >= MAX_FAILED_ATTEMPTS) return passcodeErrors.maxAttempts();
  if (row.secondsLeft <= 0) return passcodeErrors.expired();
  return undefined;
}

/**
 * Compares the code and uses the row up. A wrong code is counted (the caller's transaction commits the
 * count with the refusal it returns); the last allowed failure answers "attempts exceeded".
 */
async function useCode(
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
