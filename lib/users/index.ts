export {
  countUsersByTenant,
  findUser,
  findUserByExternalId,
  insertUser,
  lockUser,
  upsertExternalUser,
  type ExternalUserProfile,
} from "./store";
export type { User } from "./user";
export { requirePlatformUser } from "./platform-user";
export { deleteAccount, getProfile, type UserProfile } from "./profile";
export {
  deleteUser,
  getUserWithCredentials,
  lookupUser,
  type UserInfo,
  type UserWithCredentials,
} from "./public-user";
// signUp lives in ./sign-up (it issues sessions, and lib/sessions imports this module).
export { getAdminUser, type AdminUser } from "./admin-user";
export {
  createAdminUser,
  deleteAdminUser,
  listAdminUsers,
  updateAdminUser,
  type AdminUserChanges,
  type AdminUserListQuery,
  type AdminUserPage,
  type NewUserEmail,
  type NewUserInput,
} from "./admin-users";
