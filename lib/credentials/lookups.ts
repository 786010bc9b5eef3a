import type { Credential } from "./credential";
import { selectCredential, selectExternalUserCredentials, selectUserCredentials } from "./store";

/** The tenant's credential with this id, whoever holds it; undefined when there is none. */
export function findCredential(tenantId: string, credentialId: string): Promise<Credential | undefined> {
  return selectCredential(tenantId, credentialId);
}

/** A user's credentials, oldest first; `mfa` picks passkeys (false) or MFA keys (true), else both. */
export function findUserCredentials(
  tenantId: string,
  userId: string,
  filter: { mfa?: boolean } = {},
): Promise<Credential[]> {
  return selectUserCredentials(tenantId, userId, filter);
}

/**
 * The credentials of the user with this external id (the Passkey API `user_id`), in one statement; empty
 * when there is no such user as well as when the user has none.
 */
export function findExternalUserCredentials(
  tenantId: string,
  externalId: string,
  filter: { mfa?: boolean } = {},
): Promise<Credential[]> {
  return selectExternalUserCredentials(tenantId, externalId, filter);
}
