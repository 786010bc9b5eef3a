export { findUser, findUserByExternalId, upsertExternalUser, type ExternalUserProfile } from "./store";
export type { User } from "./user";
export { deleteAccount, getProfile, type Profile } from "./profile";
