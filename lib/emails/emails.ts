import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { AppError, isFault } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import { sendPasscode, type PasscodeInfo } from "@/lib/passcodes";
import { detachPasscodes } from "@/lib/passcodes/store";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { normalizeAddress } from "./address";
import {
  countUserEmails,
  deleteEmailRow,
  findEmail,
  findEmailByAddress,
  insertEmail,
  lockUser,
  selectUserEmails,
  setPrimaryEmailRow,
} from "./store";

/** Hanko's `EmailResponse`. */
export interface EmailResponse {
  id: string;
  address: string;
  is_verified: boolean;
  is_primary: boolean;
}

export const toEmailResponse = (row: EmailRow): EmailResponse => ({
  id: row.id,
  address: row.address,
  is_verified: row.verified,
  is_primary: row.isPrimary,
});

/**
 * With verification required, an unverified address that is not its user's primary one is only a
 * claim: another user adding it (or signing up with it) takes it over; whoever verifies it keeps it.
 */
export function isClaimOnly(tenant: Tenant, row: EmailRow): boolean {
  return tenant.platform.emails.requireVerification && !row.verified && !row.isPrimary;
}

/** Removes another user's unverified claim on an address (see isClaimOnly), keeping its codes' count. */
export async function releaseClaim(tenant: Tenant, row: EmailRow, context: AuditContext): Promise<void> {
  await detachPasscodes(tenant.id, row.id);
  await deleteEmailRow(tenant.id, row.id);
  await recordAuditEvent(tenant.id, {
    ...context,
    type: "email.claim_released",
    details: { userId: row.userId, emailId: row.id },
  });
}

/** `GET /emails`: the user's addresses, oldest first. */
export async function listEmails(tenant: Tenant, user: User): Promise<EmailResponse[]> {
  return (await selectUserEmails(tenant.id, user.id)).map(toEmailResponse);
}

export interface CreatedEmail extends EmailResponse {
  /** The verification code's id, when one was mailed (verification required). */
  passcode?: PasscodeInfo;
}

/**
 * `POST /emails`: adds an address (unverified) within the tenant's maximum per user. With verification
 * required it mails a verification code at once; finalize it with `POST /passcode/login/finalize`.
 */
export async function createEmail(
  tenant: Tenant,
  user: User,
  input: { address: string },
  context: AuditContext,
): Promise<CreatedEmail> {
  const address = normalizeAddress(input.address);
  const row = await auditFailures(tenant.id, "email.create", context, () =>
    transaction(async () => {
      if (!(await lockUser(tenant.id, user.id))) throw new AppError("USER_NOT_FOUND", "user not found");
      const max = tenant.platform.emails.maxPerUser;
      if ((await countUserEmails(tenant.id, user.id)) >= max) {
        throw new AppError("EMAIL_LIMIT_REACHED", undefined, {
          details: [`max number of email addresses reached (${max})`],
        });
      }
      const existing = await findEmailByAddress(tenant.id, address);
      if (existing?.userId === user.id) {
        throw new AppError("EMAIL_TAKEN", undefined, { details: ["the address is already one of yours"] });
      }
      if (existing && !isClaimOnly(tenant, existing)) {
        throw new AppError("EMAIL_TAKEN", undefined, { details: ["the address belongs to another account"] });
      }
      if (existing) await releaseClaim(tenant, existing, context);
      const hasPrimary = (await selectUserEmails(tenant.id, user.id)).some((email) => email.isPrimary);
      const created = await insertEmail({
        tenantId: tenant.id,
        userId: user.id,
        address,
        verified: false,
        isPrimary: !hasPrimary,
      });
      if (!created) {
        throw new AppError("EMAIL_TAKEN", undefined, { details: ["the address belongs to another account"] });
      }
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "email.create.succeeded",
        details: { userId: user.id, emailId: created.id },
      });
      return created;
    }),
  );
  const result: CreatedEmail = toEmailResponse(row);
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

/** The user's own address, or 404 (another user's address is not found either). */
async function ownEmail(tenant: Tenant, user: User, emailId: string): Promise<EmailRow> {
  const email = await findEmail(tenant.id, emailId);
  if (!email || email.userId !== user.id)
    throw new AppError("EMAIL_NOT_FOUND", undefined, { details: ["email not found"] });
  return email;
}

/**
 * `PUT|POST /emails/{id}/set_primary`: 204; already primary is a no-op. With verification required,
 * only a verified address can become primary (it is the JWT's `email` claim and where login codes go).
 */
export async function setPrimaryEmail(
  tenant: Tenant,
  user: User,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.set_primary", context, () =>
    transaction(async () => {
      await lockUser(tenant.id, user.id);
      const email = await ownEmail(tenant, user, emailId);
      if (email.isPrimary) return;
      if (tenant.platform.emails.requireVerification && !email.verified) {
        throw new AppError("EMAIL_UNVERIFIED", undefined, {
          details: ["verify the address before making it primary"],
        });
      }
      await setPrimaryEmailRow(tenant.id, user.id, email.id);
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "email.set_primary.succeeded",
        details: { userId: user.id, emailId: email.id },
      });
    }),
  );
}

/** `DELETE /emails/{id}`: 204; never the primary address (so never the last one): 409. */
export async function deleteEmail(
  tenant: Tenant,
  user: User,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.delete", context, () =>
    transaction(async () => {
      await lockUser(tenant.id, user.id);
      const email = await ownEmail(tenant, user, emailId);
      if (email.isPrimary) {
        throw new AppError("EMAIL_UNDELETABLE", undefined, {
          details: ["the primary address cannot be deleted: make another address primary first"],
        });
      }
      if ((await countUserEmails(tenant.id, user.id)) <= 1) {
        throw new AppError("EMAIL_UNDELETABLE", undefined, {
          details: ["the last address cannot be deleted"],
        });
      }
      await detachPasscodes(tenant.id, email.id);
      await deleteEmailRow(tenant.id, email.id);
      await recordAuditEvent(tenant.id, {
        ...context,
        type: "email.delete.succeeded",
        details: { userId: user.id, emailId: email.id },
      });
    }),
  );
}

/** The user's primary address, when it is verified (where account notices may go). */
export async function verifiedPrimaryAddress(tenant: Tenant, userId: string): Promise<string | undefined> {
  const primary = (await selectUserEmails(tenant.id, userId)).find((row) => row.isPrimary);
  return primary?.verified ? primary.address : undefined;
}
