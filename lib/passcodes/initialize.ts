import { randomUUID } from "node:crypto";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow, PasscodePurpose } from "@/lib/db/schema";
import { findEmail, selectUserEmails } from "@/lib/emails";
import { sendMail } from "@/lib/mail";
import { checkSessionToken } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, type User } from "@/lib/users";
import { MAX_FAILED_ATTEMPTS, digestCode, generateCode } from "./code";
import { passcodeErrors } from "./errors";
import { passcodeMail } from "./mail";
import { requesterOf } from "./requester";
import {
  expirePasscodes,
  insertPasscode,
  liveCodesForAddress,
  lockAddressCodes,
  sweepOldPasscodes,
} from "./store";

const SWEEP_EVERY = 64;

/** A code that was mailed: its id (for finalize) and lifetime. */
export interface PasscodeInfo {
  id: string;
  createdAt: Date;
  expiresAt: Date;
}

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
    const emails = await selectUserEmails(tenant.id, user.id);
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
  const ttl = tenant.passcodeTtlSeconds;
  const row = await transaction(async () => {
    // The address row's lock serialises codes per address; the latest code's lock waits for a
    // finalize counting a wrong attempt on it.
    const locked = await findEmail(tenant.id, email.id, { lock: true });
    if (!locked || locked.userId !== user.id) throw passcodeErrors.emailNotAvailable();
    if (callerUserId !== user.id && needsSession(await selectUserEmails(tenant.id, user.id), locked)) {
      throw passcodeErrors.sessionNeeded();
    }
    return insertCode(
      tenant,
      { address: locked.address, userId: user.id, emailId: locked.id, purpose },
      requesterOf(context),
      id,
      code,
    );
  });
  if (Math.random() * SWEEP_EVERY < 1) await sweepOldPasscodes();
  // Mailed after the commit, so no lock is held while the mail server answers.
  const sent = await sendMail(tenant.id, passcodeMail(tenant, purpose, row.address, code, ttl));
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

/** Where a code goes: the address, and the user and address row it is for once they exist. */
export interface CodeTarget {
  address: string;
  userId: string | null;
  emailId: string | null;
  purpose: PasscodePurpose;
}

/**
 * Inserts a new code for the address (call inside a transaction). Sends to one address are serialised
 * (an advisory lock on tenant and address), so parallel sends cannot each start a fresh count. The
 * requester's failed attempts carry over from its live code for the address; with none left it is
 * refused until that code expires. The new code replaces every live one of the same requester.
 */
async function insertCode(tenant: Tenant, target: CodeTarget, requester: string, id: string, code: string) {
  await lockAddressCodes(tenant.id, target.address);
  const live = await liveCodesForAddress(tenant.id, target.address, requester);
  const carried = Math.max(0, ...live.map((row) => row.failedAttempts));
  if (carried >= MAX_FAILED_ATTEMPTS) {
    throw passcodeErrors.locked(Math.max(...live.map((row) => row.secondsLeft)));
  }
  await expirePasscodes(
    tenant.id,
    live.map((row) => row.id),
  );
  return insertPasscode({
    id,
    tenantId: tenant.id,
    userId: target.userId,
    emailId: target.emailId,
    address: target.address,
    purpose: target.purpose,
    requester,
    codeHash: digestCode(tenant.id, id, code),
    failedAttempts: carried,
    ttlSeconds: tenant.passcodeTtlSeconds,
  });
}

/**
 * Mails a code to an address for a flow (login, sign-up before the user exists, a new address in the
 * profile): the flow keeps the code's id and checks it with `checkPasscode`. Audited like `sendPasscode`.
 */
export async function sendCode(
  tenant: Tenant,
  target: CodeTarget,
  context: AuditContext,
): Promise<PasscodeInfo> {
  const code = generateCode();
  const row = await transaction(() => insertCode(tenant, target, requesterOf(context), randomUUID(), code));
  if (Math.random() * SWEEP_EVERY < 1) await sweepOldPasscodes();
  const sent = await sendMail(
    tenant.id,
    passcodeMail(tenant, target.purpose, row.address, code, tenant.passcodeTtlSeconds),
  );
  await recordAuditEvent(tenant.id, {
    ...context,
    type: "passcode.send.succeeded",
    details: {
      userId: target.userId,
      emailId: target.emailId,
      passcodeId: row.id,
      purpose: target.purpose,
      carriedFailedAttempts: row.failedAttempts,
      via: sent.via,
    },
  });
  return passcodeInfo(row);
}

export function passcodeInfo({ id, createdAt, expiresAt }: PasscodeInfo): PasscodeInfo {
  return { id, createdAt, expiresAt };
}
