import { randomUUID } from "node:crypto";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { PasscodePurpose } from "@/lib/db/schema";
import { sendMail } from "@/lib/mail";
import type { Tenant } from "@/lib/tenants";
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

/** Where a code goes: the address, and the user and address row it is for once they exist. */
export interface CodeTarget {
  address: string;
  userId: string | null;
  emailId: string | null;
  purpose: PasscodePurpose;
}

/**
 * Inserts a new code for the address (call inside a transaction; `sendCode` and lib/accounts
 * `sendPasscode` do). Sends to one address are serialised
 * (an advisory lock on tenant and address), so parallel sends cannot each start a fresh count. The
 * requester's failed attempts carry over from its live code for the address; with none left it is
 * refused until that code expires. The new code replaces every live one of the same requester.
 */
export async function storeCode(
  tenant: Tenant,
  target: CodeTarget,
  requester: string,
  id: string,
  code: string,
) {
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
  const row = await transaction(() => storeCode(tenant, target, requesterOf(context), randomUUID(), code));
  const sent = await mailCode(tenant, target.purpose, row.address, code);
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

/**
 * Mails a stored code (after the commit, so no lock is held while the mail server answers); now and then
 * sweeps old codes first.
 */
export async function mailCode(tenant: Tenant, purpose: PasscodePurpose, address: string, code: string) {
  if (Math.random() * SWEEP_EVERY < 1) await sweepOldPasscodes();
  return sendMail(tenant.id, passcodeMail(tenant, purpose, address, code, tenant.passcodeTtlSeconds));
}
