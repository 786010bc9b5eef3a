import type { AdminUser } from "@/lib/wire/admin-user";
import { findUserCredentials } from "@/lib/credentials";
import { findUserEmails } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import { listIdentities } from "@/lib/identities";
import { readUserMetadata } from "@/lib/metadata";
import { findOtpSecret } from "@/lib/mfa";
import { findPassword } from "@/lib/passwords";
import { requirePlatformUser } from "@/lib/users";
import type { User } from "@/lib/users";

export type { AdminUser };

export const userNotFound = () => new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });

/** The admin view of a user already loaded (a platform user of the tenant). */
export async function adminViewOf(user: User): Promise<AdminUser> {
  const { tenantId, id } = user;
  const [emails, credentials, password, otp, metadata, identities] = await Promise.all([
    findUserEmails(tenantId, id),
    findUserCredentials(tenantId, id),
    findPassword(tenantId, id),
    findOtpSecret(tenantId, id),
    readUserMetadata(tenantId, id),
    listIdentities(tenantId, id),
  ]);
  return {
    user,
    emails,
    credentials,
    password: password && { id, createdAt: password.createdAt, updatedAt: password.updatedAt },
    otp: otp && { id, createdAt: otp.createdAt },
    metadata,
    identities,
  };
}

/**
 * The admin `User` of one of the tenant's platform users (`GET /admin/users/{id}`, and the data of
 * `user.*` webhook events). USER_NOT_FOUND for an unknown id, another tenant's user or a Passkey API
 * user (those have an external id and are managed through the Passkey API).
 */
export async function getAdminUser(tenantId: string, userId: string): Promise<AdminUser> {
  return adminViewOf(await requirePlatformUser(tenantId, userId));
}
