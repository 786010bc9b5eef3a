import { auditFailures, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { requirePlatformUser } from "@/lib/users";
import { addEmail, removeEmail, setPrimary } from "./email-changes";
import { findEmail, normalizeAddress, findUserEmails } from "@/lib/emails";

// The admin API's operations on a user's addresses: the same rules as the user's own (addEmail,
// setPrimary, removeEmail), with the API key as the actor. An unknown user, another tenant's or a Passkey
// API user is USER_NOT_FOUND (`requirePlatformUser`).

const emailNotFound = () => new AppError("EMAIL_NOT_FOUND", undefined, { details: ["email not found"] });

/** The user's addresses, oldest first. */
export async function listUserEmails(tenant: Tenant, userId: string): Promise<EmailRow[]> {
  await requirePlatformUser(tenant.id, userId);
  return findUserEmails(tenant.id, userId);
}

/** One of the user's addresses; another user's is EMAIL_NOT_FOUND. */
export async function getUserEmail(tenant: Tenant, userId: string, emailId: string): Promise<EmailRow> {
  await requirePlatformUser(tenant.id, userId);
  const email = await findEmail(tenant.id, emailId);
  if (!email || email.userId !== userId) throw emailNotFound();
  return email;
}

export interface AdminEmailInput {
  address: string;
  isPrimary: boolean;
  isVerified: boolean;
}

/**
 * Adds an address to a user (`addEmail`: the tenant's maximum, taken addresses, claims), verified as
 * the admin says, and makes it primary when asked. One transaction: a refused primary (unverified while
 * the tenant requires verification) leaves nothing behind. No code is mailed. Audited as
 * `email.create.succeeded|failed` (and `email.set_primary.succeeded`).
 */
export async function createUserEmail(
  tenant: Tenant,
  userId: string,
  input: AdminEmailInput,
  context: AuditContext,
): Promise<EmailRow> {
  return auditFailures(tenant.id, "email.create", context, async () => {
    const address = normalizeAddress(input.address);
    await requirePlatformUser(tenant.id, userId);
    return transaction(async () => {
      const row = await addEmail(tenant, userId, { address, verified: input.isVerified, context });
      if (!input.isPrimary || row.isPrimary) return row;
      await setPrimary(tenant, userId, row.id, context);
      return (await findEmail(tenant.id, row.id)) ?? row;
    });
  });
}

/** Removes one of the user's addresses (`removeEmail`: never the primary one, 409). */
export async function deleteUserEmail(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.delete", context, async () => {
    await requirePlatformUser(tenant.id, userId);
    await removeEmail(tenant, userId, emailId, context);
  });
}

/** Makes one of the user's addresses primary (`setPrimary`). */
export async function setUserPrimaryEmail(
  tenant: Tenant,
  userId: string,
  emailId: string,
  context: AuditContext,
): Promise<void> {
  await auditFailures(tenant.id, "email.set_primary", context, async () => {
    await requirePlatformUser(tenant.id, userId);
    await setPrimary(tenant, userId, emailId, context);
  });
}
