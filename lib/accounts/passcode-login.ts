import { randomUUID } from "node:crypto";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow, PasscodePurpose } from "@/lib/db/schema";
import { findEmail, findUserEmails } from "@/lib/emails";
import type { AppError } from "@/lib/errors";
import {
  generateCode,
  lockCode,
  mailCode,
  passcodeErrors,
  passcodeInfo,
  passcodeOwner,
  requesterOf,
  storeCode,
  unusableReason,
  useCode,
  type CodeInput,
  type PasscodeInfo,
} from "@/lib/passcodes";
import { checkSessionToken, issueSession, type AuthMethod, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, lockUser, type User } from "@/lib/users";
import { verifyEmail } from "./verify-email";

// The Public API's passcode login (`/passcode/login/initialize|finalize`): a code mailed to one of the
// user's addresses logs the user in and proves the address. lib/passcodes keeps the codes.

export interface InitializePasscodeInput {
  user_id: string;
  email_id?: string | undefined;
}

/**
 * `POST /passcode/login/initialize`: mails a new 6-digit code to the user's primary address, or to
 * `email_id` (one of the user's addresses). A session sent along must be the same user's (403).
 */
export async function initializePasscode(
  tenant: Tenant,
  input: InitializePasscodeInput,
  sessionToken: string | undefined,
  context: AuditContext,
): Promise<PasscodeInfo> {
  return auditFailures(tenant.id, "passcode.login.initialize", context, async () => {
    const user = await findUser(tenant.id, input.user_id);
    if (!user) throw passcodeErrors.unknownUser();
    const caller = sessionToken ? await checkSessionToken(tenant, sessionToken) : undefined;
    if (caller && caller.user.id !== user.id) throw passcodeErrors.otherUsersSession();
    const emails = await findUserEmails(tenant.id, user.id);
    const email = input.email_id
      ? emails.find((row) => row.id === input.email_id?.toLowerCase())
      : emails.find((row) => row.isPrimary);
    if (!email) throw input.email_id ? passcodeErrors.emailNotAvailable() : passcodeErrors.noEmail();
    return sendPasscode(tenant, user, email, caller?.user.id, context);
  });
}

/**
 * Whether a code for this address may log its user in without a session: always for a verified
 * address and for a user without any verified address (sign-up); an unverified address added to an
 * account that already has a verified one is verified only by that account's session.
 */
export function needsSession(emails: EmailRow[], email: EmailRow): boolean {
  return !email.verified && emails.some((row) => row.id !== email.id && row.verified);
}

/**
 * Creates a code for the address and mails it. The failed attempts of the same requester's latest code
 * for the address carry over while that one is live (not expired, not used), so a new code does not
 * reset them; with none left the requester is refused until that code expires. The new code replaces
 * the requester's old one; codes other clients asked for stay as they are (`requesterOf`).
 */
export async function sendPasscode(
  tenant: Tenant,
  user: User,
  email: EmailRow,
  callerUserId: string | undefined,
  context: AuditContext,
): Promise<PasscodeInfo> {
  const purpose: PasscodePurpose = email.verified ? "login" : "email_verification";
  const code = generateCode();
  const id = randomUUID();
  const row = await transaction(async () => {
    // The address row's lock serialises codes per address; the latest code's lock waits for a
    // finalize counting a wrong attempt on it.
    const locked = await findEmail(tenant.id, email.id, { lock: true });
    if (!locked || locked.userId !== user.id) throw passcodeErrors.emailNotAvailable();
    if (callerUserId !== user.id && needsSession(await findUserEmails(tenant.id, user.id), locked)) {
      throw passcodeErrors.sessionNeeded();
    }
    return storeCode(
      tenant,
      { address: locked.address, userId: user.id, emailId: locked.id, purpose },
      requesterOf(context),
      id,
      code,
    );
  });
  // Mailed after the commit, so no lock is held while the mail server answers.
  const sent = await mailCode(tenant, purpose, row.address, code);
  await recordAuditEvent(tenant.id, {
    ...context,
    type: "passcode.login.initialize.succeeded",
    details: {
      userId: user.id,
      emailId: row.emailId,
      passcodeId: row.id,
      purpose,
      carriedFailedAttempts: row.failedAttempts,
      via: sent.via,
    },
  });
  return passcodeInfo(row);
}

export type FinalizePasscodeInput = CodeInput;

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
      const owner = await passcodeOwner(tenant.id, input.id);
      if (owner) await lockUser(tenant.id, owner);
      const row = await lockCode(tenant.id, input.id);
      if (!row || !row.emailId || !row.userId) return { error: passcodeErrors.notFound() };
      const unusable = unusableReason(row);
      if (unusable) return { error: unusable };
      const user = await findUser(tenant.id, row.userId);
      const emails = user ? await findUserEmails(tenant.id, user.id) : [];
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
