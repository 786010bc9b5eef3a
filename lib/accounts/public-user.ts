import { auditFailures, type AuditContext } from "@/lib/audit";
import { findUserCredentials, type Credential } from "@/lib/credentials";
import type { EmailRow } from "@/lib/db/schema";
import { normalizeAddress } from "@/lib/emails/address";
import { findEmailByAddress, findUserEmails } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { deleteAccount } from "./profile";
import { findUser } from "@/lib/users";
import type { User } from "@/lib/users";

/** A user with their primary address and every credential (Hanko's deprecated `GET /users/{id}`). */
export interface UserWithCredentials {
  user: User;
  primaryEmail: EmailRow | undefined;
  credentials: Credential[];
}

/** `GET /users/{id}`: the signed-in user only; another id is 403 (Hanko), a vanished user 404. */
export async function getUserWithCredentials(
  tenant: Tenant,
  caller: User,
  userId: string,
): Promise<UserWithCredentials> {
  if (userId.toLowerCase() !== caller.id) {
    throw new AppError("NOT_SESSION_USER", undefined, { details: ["a session may only read its own user"] });
  }
  const user = await findUser(tenant.id, caller.id);
  if (!user) throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
  const primaryEmail = (await findUserEmails(tenant.id, user.id)).find((email) => email.isPrimary);
  return { user, primaryEmail, credentials: await findUserCredentials(tenant.id, user.id) };
}

/** Hanko's `UserInfoResponse`. */
export interface UserInfo {
  id: string;
  email_id: string;
  verified: boolean;
  has_webauthn_credential: boolean;
}

/**
 * `POST /user` `{email}`: which user holds the address, whether it is verified and whether the user
 * has a passkey, or 404. It tells anyone whether an address has an account, as Hanko 2.x does (and
 * as sign-up's 409 does where sign-up is open); an unverified address does not count while the
 * tenant requires verification. API version 3 removes the endpoint.
 */
export async function lookupUserByEmail(tenant: Tenant, input: { email: string }): Promise<UserInfo> {
  const address = normalizeAddress(input.email, "email");
  const email = await findEmailByAddress(tenant.id, address);
  if (!email || (tenant.platform.emails.requireVerification && !email.verified)) {
    throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
  }
  const passkeys = await findUserCredentials(tenant.id, email.userId, { mfa: false });
  return {
    id: email.userId,
    email_id: email.id,
    verified: email.verified,
    has_webauthn_credential: passkeys.length > 0,
  };
}

/** `DELETE /user`: as `DELETE /me` (only when the tenant allows account deletion, else 403). */
export async function deleteUserOfSelf(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  await auditFailures(tenant.id, "user.delete", context, () => deleteAccount(tenant, user, context));
}
