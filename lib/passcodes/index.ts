// lib/passcodes owns the one-time codes mailed to an address: storing (attempts carry over, single use),
// mailing and checking them. The Public API's passcode login that uses them is lib/accounts.
export {
  mailCode,
  passcodeInfo,
  sendCode,
  storeCode,
  type CodeTarget,
  type PasscodeInfo,
} from "./initialize";
export {
  checkPasscode,
  detachPasscodes,
  lockCode,
  passcodeOwner,
  unusableReason,
  useCode,
  type CheckedPasscode,
  type CodeInput,
} from "./finalize";
export { generateCode, MAX_FAILED_ATTEMPTS } from "./code";
export { passcodeErrors } from "./errors";
export { requesterOf } from "./requester";
