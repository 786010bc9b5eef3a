export {
  initializePasscode,
  sendPasscode,
  type InitializePasscodeInput,
  type PasscodeInfo,
} from "./initialize";
export { finalizePasscode, type FinalizePasscodeInput, type FinalizedPasscode } from "./finalize";
export { MAX_FAILED_ATTEMPTS } from "./code";
