export {
  findUser,
  findUserByExternalId,
  insertUser,
  lockUser,
  upsertExternalUser,
  type ExternalUserProfile,
} from "./store";
export type { User } from "./user";
export { deleteAccount, getProfile, type Profile } from "./profile";
export {
  deleteUser,
  getPublicUser,
  lookupUser,
  type PublicCredential,
  type PublicUser,
  type UserInfo,
} from "./public-user";
// signUp lives in ./sign-up (it issues sessions, and lib/sessions imports this module).
