// lib/emails owns the `emails` table: other modules use these operations, never ./store.
export { addEmail, type AddEmailOptions } from "./add-email";
export { confirmEmail, type ConfirmEmailOptions } from "./verify-email";
export { setPrimary } from "./set-primary";
export { removeEmail } from "./remove-email";
export { isAddressTaken, isClaimOnly } from "./claims";
export { EmailLimitReached, EmailTaken } from "./errors";
export {
  createEmail,
  deleteEmail,
  listEmails,
  setPrimaryEmail,
  verifiedPrimaryAddress,
  type CreatedEmail,
} from "./emails";
export { EmailAddress, normalizeAddress } from "./address";
export { findEmail, findEmailByAddress, findPrimaryEmail, selectUserEmails } from "./store";
export {
  createUserEmail,
  deleteUserEmail,
  getUserEmail,
  listUserEmails,
  setUserPrimaryEmail,
  type AdminEmailInput,
} from "./admin-emails";
export { holdsAddressLike, primaryAddressesOf, userIdsByAddressFragment } from "./lookups";
