// lib/users owns the `users` table, the user lock and the lookups of a user. What spans owners (sign-up,
// the admin and public views of a user, deletion) lives above, in lib/accounts.
export {
  addUser,
  countUsersByTenant,
  findUser,
  findUserWith,
  findUserByExternalId,
  lockUser,
  upsertExternalUser,
} from "./rows";
export type {
  ExternalUserProfile,
  NewAdminUser,
  PlatformUserFilter,
  User,
  UserCondition,
  UserProfileChanges,
} from "./user";
export { requirePlatformUser } from "./platform-user";
export { findUserByUsername, USERNAME_PATTERN } from "./lookup";
export {
  changeUsername,
  ensureUsernames,
  InvalidUsername,
  isUniqueViolation,
  normalizeUsername,
  UsernameTaken,
} from "./username";
export {
  changePlatformUser,
  createPlatformUser,
  createUserAsAdmin,
  pagePlatformUsers,
  removeUser,
} from "./users";
export { refuseLockedUser, setUserLock, UserLocked } from "./user-lock";
