// lib/emails owns the `emails` table: other modules use these operations, never ./store.
export { addAddress, type AddAddressOptions } from "./add-email";
export { confirmEmail, type ConfirmEmailOptions } from "./verify-email";
export { makePrimary } from "./set-primary";
export { removeAddress } from "./remove-email";
export { isAddressTaken, isClaimOnly } from "./claims";
export { EmailLimitReached, EmailTaken } from "./errors";
export { EmailAddress, normalizeAddress } from "./address";
export {
  findEmail,
  findEmailByAddress,
  findPrimaryEmail,
  findUserEmails,
  primaryAddressesOf,
  userIdsByAddressFragment,
  verifiedPrimaryAddress,
} from "./lookups";
export { holdsAddressLike, primaryAddressOf, type PrimaryAddress } from "./fragments";
