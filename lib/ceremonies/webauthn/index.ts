export { finalizeLogin, initializeLogin } from "./login";
export {
  finalizeRegistration,
  initializeRegistration,
  type CreationOptions,
  type RegistrationInput,
} from "./registration";
export {
  finalizeTransaction,
  initializeTransaction,
  listTransactions,
  type TransactionInput,
} from "./transaction";
export { canonicalJson, transactionChallenge } from "./transaction-challenge";
export {
  finalizePublicLogin,
  finalizePublicRegistration,
  initializePublicLogin,
  initializePublicRegistration,
  type PublicCeremonyResult,
} from "./public";
export { userHandleOf } from "./user-handle";
