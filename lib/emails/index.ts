export {
  createEmail,
  deleteEmail,
  isClaimOnly,
  listEmails,
  releaseClaim,
  setPrimaryEmail,
  toEmailResponse,
  verifiedPrimaryAddress,
  type CreatedEmail,
  type EmailResponse,
} from "./emails";
export { EmailAddress, normalizeAddress } from "./address";
