import { selectUserCredentials, type Credential } from "@/lib/credentials";
import type { EmailRow, IdentityRow } from "@/lib/db/schema";
import { selectUserEmails } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import { listIdentities } from "@/lib/identities";
import { readUserMetadata, type UserMetadata } from "@/lib/metadata";
import { findOtpSecret } from "@/lib/mfa";
import { findPassword } from "@/lib/passwords";
import { requirePlatformUser } from "@/lib/users";
import type { User } from "@/lib/users";

/**
 * Everything Hanko's admin `User` shows of a platform user: the user row (username and profile claims),
 * addresses, WebAuthn credentials, when the password and the authenticator app were set up, metadata,
 * identities at third-party and SAML providers.
 * The password and the OTP secret have no id of their own in Sesame: theirs is the user's id.
 */
export interface AdminUser {
  user: User;
  emails: EmailRow[];
  credentials: Credential[];
  password: { id: string; createdAt: Date; updatedAt: Date } | undefined;
  otp: { id: string; createdAt: Date } | undefined;
  metadata: UserMetadata;
  identities: IdentityRow[];
}

export const userNotFound = () => new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });

/** The admin view of a user already loaded (a platform user of the tenant). */
export async function adminViewOf(user: User): Promise<AdminUser> {
  const { tenantId, id } = user;
  const [emails, credentials, password, otp, metadata, identities] = await Promise.all([
    selectUserEmails(tenantId, id),
    selectUserCredentials(tenantId, id),
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
