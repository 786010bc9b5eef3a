import {
  insertUser,
  selectUser,
  selectUserByExternalId,
  selectUserCountsByTenant,
  selectUserForUpdate,
  selectUserWith,
  upsertExternalUserRow,
} from "./store";
import type { ExternalUserProfile, User } from "./user";

/*
 * The users table's operations for the other owners and lib/accounts: look-ups, the one user lock, and
 * the plain rows a sign-up or a Passkey API registration starts from.
 */

/** The tenant's user with this id (undefined for another tenant's or an id that is not a UUID). */
export function findUser(tenantId: string, userId: string): Promise<User | undefined> {
  return selectUser(tenantId, userId);
}

/**
 * {@link findUser} and, in the same statement, another owner's SQL about the user (its fragment, e.g.
 * lib/emails' primary address): one round trip for a reader that needs both.
 */
export const findUserWith: <T>(
  tenantId: string,
  userId: string,
  extra: Parameters<typeof selectUserWith<T>>[2],
) => Promise<{ user: User; extra: T } | undefined> = selectUserWith;

/** The tenant's user with this external id (the Passkey API `user_id`). */
export function findUserByExternalId(tenantId: string, externalId: string): Promise<User | undefined> {
  return selectUserByExternalId(tenantId, externalId);
}

/**
 * The user lock: locks the user's row until the transaction ends, so changes to one user's data are
 * serialised across instances. False when the tenant has no such user.
 */
export function lockUser(tenantId: string, userId: string): Promise<boolean> {
  return selectUserForUpdate(tenantId, userId);
}

/** A new user with nothing else (its addresses, credentials, … are added by their owners). */
export function addUser(tenantId: string): Promise<User> {
  return insertUser(tenantId);
}

/** Creates the user with this external id, or overwrites its profile (as Hanko does on every registration). */
export function upsertExternalUser(tenantId: string, profile: ExternalUserProfile): Promise<User> {
  return upsertExternalUserRow(tenantId, profile);
}

/** How many users each tenant has (tenants without any are left out). */
export function countUsersByTenant(tenantIds: string[]): Promise<Map<string, number>> {
  return selectUserCountsByTenant(tenantIds);
}
