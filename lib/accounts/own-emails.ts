import { auditFailures, type AuditContext } from "@/lib/audit";
import type { EmailRow } from "@/lib/db/schema";
import { AppError, isFault } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import { type PasscodeInfo } from "@/lib/passcodes";
import { sendPasscode } from "./passcode-login";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { addEmail, removeEmail, setPrimary } from "./email-changes";
import { normalizeAddress, findUserEmails } from "@/lib/emails";

/** `GET /emails`: the user's addresses, oldest first. */
export async function listEmailsOfSelf(tenant: Tenant, user: User): Promise<EmailRow[]> {
  return findUserEmails(tenant.id, user.id);
}

export interface CreatedEmail {
  email: EmailRow;
  /** The verification code's id, when one was mailed (verification required). */
  passcode?: PasscodeInfo;
}

/**
 * `POST /emails`: adds an address (unverified, `addEmail`). With verification required it mails a
 * verification code at once; finalize it with `POST /passcode/login/finalize`.
 */
export async function createEmailOfSelf(
  tenant: Tenant,
  user: User,
  input: { address: string },
  context: AuditContext,
): Promise<CreatedEmail> {
  const address = normalizeAddress(input.address);
  const row = await auditFailures(tenant.id, "email.create", context, () =>
    addEmail(tenant, user.id, { address, verified: false, context }),
  );
  const result: CreatedEmail = { email: row };
  if (tenant.platform.emails.requireVerification) {
    try {
      result.passcode = await sendPasscode(tenant, user, row, user.id, context);
    } catch (error) {
      // The address exists either way; the client can ask again with /passcode/login/initialize.
      const level = error instanceof AppError && !isFault(error.code) ? "info" : "error";
      getLogger()[level]({ err: error, tenantId: tenant.id, emailId: row.id }, "verification code not sent");
    }
  }
  return result;
}

/** `PUT|POST /emails/{id}/set_primary`: 204 (`setPrimary`); a failure is audited as `email.set_primary.failed`. */
export async function setPrimaryEmailOfSelf(
  tenant: Tenant,
  user: User,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.set_primary", context, () =>
    setPrimary(tenant, user.id, emailId, context),
  );
}

/** `DELETE /emails/{id}`: 204 (`removeEmail`); a failure is audited as `email.delete.failed`. */
export async function deleteEmailOfSelf(
  tenant: Tenant,
  user: User,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.delete", context, () =>
    removeEmail(tenant, user.id, emailId, context),
  );
}
