export { defaultCredentialName, type Credential } from "./credential";
export { passkeyProviderName } from "./passkey-provider-names";
export {
  deleteCredential,
  getCredential,
  listCredentials,
  renameCredential,
  type OwnedCredential,
} from "./manage-credentials";
export { deleteUserCredential, listUserCredentials, renameUserCredential } from "./user-credentials";
export { findCredentialWithOwner } from "./credential-owner";
export { findCredential, findExternalUserCredentials, findUserCredentials } from "./lookups";
export {
  recordCredentialUse,
  removeAllCredentials,
  removeCredential,
  saveCredential,
  saveCredentialWithAudit,
} from "./changes";
export { deleteCredentialOfUser, getCredentialOfUser, listCredentialsOfUser } from "./admin-credentials";
export { usersWithPasskeys } from "./passkey-holders";
export { hasPasskeyCondition } from "./fragments";
