// lib/accounts: the operations that span owners (a user's account across users, emails, credentials,
// passwords, second factors, sessions, identities, metadata and webhooks). Owners never import it.
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
export { findUserByEmail } from "./lookup";
export { deleteAccount, getProfile, type UserProfile } from "./profile";
export {
  deleteUserOfSelf,
  getUserWithCredentials,
  lookupUserByEmail,
  type UserInfo,
  type UserWithCredentials,
} from "./public-user";
export { signUpWithEmail, type SignedUp, type SignUpResponse } from "./sign-up";
export {
  completeFlowSignUp,
  prepareSignUpPassword,
  SignUpConflict,
  usernameTaken,
  type FlowSignUp,
  type SignUpConflictField,
} from "./flow-sign-up";
export { deleteUsername, setUsername } from "./username";
export { userEventData, userWebhookData } from "./user-event-data";
export { provisionTenant, type ProvisionedTenant } from "./provision-tenant";
export {
  linkIdentity,
  signInWithIdentity,
  type AssertedIdentity,
  type IdentityOutcome,
  type IdentityPolicy,
  type IdentitySignIn,
} from "./identity-sign-in";
export { verifyEmail, type VerifyEmailOptions } from "./verify-email";
export { addEmail, removeEmail, setPrimary, type AddEmailOptions } from "./email-changes";
export {
  createEmailOfSelf,
  deleteEmailOfSelf,
  listEmailsOfSelf,
  setPrimaryEmailOfSelf,
  type CreatedEmail,
} from "./own-emails";
export {
  createUserEmail,
  deleteUserEmail,
  getUserEmail,
  listUserEmails,
  setUserPrimaryEmail,
  type AdminEmailInput,
} from "./admin-emails";
export { setPasswordOfSelf, type SetPasswordInput, type SetPasswordOptions } from "./set-password";
export { deletePasswordOfUser, getPasswordOfUser, setPasswordOfUser } from "./admin-passwords";
export { removeIdentity } from "./identities";
export {
  finalizePasscode,
  initializePasscode,
  sendPasscode,
  type FinalizedPasscode,
  type FinalizePasscodeInput,
  type InitializePasscodeInput,
} from "./passcode-login";
export { setAccountLocked } from "./user-lock";
export { loadUserParts, type UserParts } from "./user-parts";
