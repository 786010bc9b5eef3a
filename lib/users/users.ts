import {
  countPlatformUsers,
  deleteUserRow,
  insertAdminUser,
  insertPlatformUser,
  selectPlatformUsers,
  updatePlatformUser,
} from "./store";
import type { NewAdminUser, PlatformUserFilter, User, UserProfileChanges } from "./user";

/*
 * The operations on the users table that lib/accounts composes with the other owners (sign-up, the admin
 * API's users, deletion). None of them records an audit event or a webhook: the account operation does.
 */

/** A platform user (no external id) with its pre-generated id; undefined when the id or username is taken. */
export async function createPlatformUser(
  tenantId: string,
  id: string,
  username: string | null,
): Promise<User | undefined> {
  return insertPlatformUser(tenantId, id, username);
}

/** A platform user with the admin's id, username and creation time; undefined when the id or username is taken. */
export async function createUserAsAdmin(tenantId: string, input: NewAdminUser): Promise<User | undefined> {
  return insertAdminUser(tenantId, input);
}

/** A page of the tenant's platform users by creation time (then id), and how many match in all. */
export async function pagePlatformUsers(
  tenantId: string,
  filter: PlatformUserFilter,
  page: { offset: number; limit: number; direction: "asc" | "desc" },
): Promise<{ users: User[]; total: number }> {
  const [users, total] = await Promise.all([
    selectPlatformUsers(tenantId, filter, page),
    countPlatformUsers(tenantId, filter),
  ]);
  return { users, total };
}

/** Changes a platform user's profile fields (the unique index on usernames may refuse). */
export async function changePlatformUser(
  tenantId: string,
  userId: string,
  changes: UserProfileChanges,
): Promise<User | undefined> {
  return updatePlatformUser(tenantId, userId, changes);
}

/** Deletes the user; the database cascades to everything of theirs (sessions, emails, credentials…). */
export async function removeUser(tenantId: string, userId: string): Promise<boolean> {
  return deleteUserRow(tenantId, userId);
}
