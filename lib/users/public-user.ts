import { auditFailures, type AuditContext } from "@/lib/audit";
import { selectUserCredentials } from "@/lib/credentials/store";
import { normalizeAddress } from "@/lib/emails/address";
import { findEmailByAddress, selectUserEmails } from "@/lib/emails/store";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { deleteAccount } from "./profile";
import { findUser } from "./store";
import type { User } from "./user";

/** A credential in Hanko's deprecated `GET /users/{id}` (`webauthn_credentials`). */
export interface PublicCredential {
  id: string;
  name: string;
  public_key: string;
  attestation_type: string;
  aaguid: string;
  transports: string[];
  backup_eligible: boolean;
  backup_state: boolean;
  mfa_only: boolean;
  created_at: string;
  last_used_at?: string;
}

/** Hanko's `GetUserResponse`. */
export interface PublicUser {
  id: string;
  email?: string;
  username?: string;
  webauthn_credentials: PublicCredential[];
  created_at: string;
  updated_at: string;
}

/** `GET /users/{id}`: the signed-in user only; another id is 403 (Hanko), a vanished user 404. */
export async function getPublicUser(tenant: Tenant, caller: User, userId: string): Promise<PublicUser> {
  if (userId.toLowerCase() !== caller.id) {
    throw new AppError("FORBIDDEN", undefined, { details: ["a session may only read its own user"] });
  }
  const user = await findUser(tenant.id, caller.id);
  if (!user) throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
  const primary = (await selectUserEmails(tenant.id, user.id)).find((email) => email.isPrimary);
  const credentials = await selectUserCredentials(tenant.id, user.id);
  return {
    id: user.id,
    ...(primary ? { email: primary.address } : {}),
    ...(user.username ? { username: user.username } : {}),
    webauthn_credentials: credentials.map((credential) => ({
      id: credential.id,
      name: credential.name,
      public_key: credential.publicKey,
      attestation_type: credential.attestationType,
      aaguid: credential.aaguid,
      transports: credential.transports,
      backup_eligible: credential.backupEligible,
      backup_state: credential.backupState,
      mfa_only: credential.isMfa,
      created_at: credential.createdAt.toISOString(),
      ...(credential.lastUsedAt ? { last_used_at: credential.lastUsedAt.toISOString() } : {}),
    })),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
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
export async function lookupUser(tenant: Tenant, input: { email: string }): Promise<UserInfo> {
  const address = normalizeAddress(input.email, "email");
  const email = await findEmailByAddress(tenant.id, address);
  if (!email || (tenant.platform.emails.requireVerification && !email.verified)) {
    throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
  }
  const passkeys = await selectUserCredentials(tenant.id, email.userId, { mfa: false });
  return {
    id: email.userId,
    email_id: email.id,
    verified: email.verified,
    has_webauthn_credential: passkeys.length > 0,
  };
}

/** `DELETE /user`: as `DELETE /me` (only when the tenant allows account deletion, else 403). */
export async function deleteUser(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  await auditFailures(tenant.id, "user.delete", context, () => deleteAccount(tenant, user, context));
}
