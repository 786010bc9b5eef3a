export {
  initializePasscode,
  sendCode,
  sendPasscode,
  type CodeTarget,
  type InitializePasscodeInput,
  type PasscodeInfo,
} from "./initialize";
export {
  checkPasscode,
  finalizePasscode,
  type CheckedPasscode,
  type FinalizePasscodeInput,
  type FinalizedPasscode,
} from "./finalize";
export { MAX_FAILED_ATTEMPTS } from "./code";
export { detachPasscodes } from "./store";
