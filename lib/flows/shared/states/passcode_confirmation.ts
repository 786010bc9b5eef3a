import type { FlowContext } from "@/lib/flows/definition";
import { PASSCODE_STASH, RESEND_AFTER_SECONDS, sendPasscode } from "../passcode";

/**
 * `passcode_confirmation` of any flow: entering it mails a code to the target set with
 * `setPasscodeTarget`. Payload `{passcode_resent, resend_after}`.
 */
export const passcodeConfirmationState = {
  actions: ["verify_passcode", "resend_passcode", "back"] as const,
  async enter(ctx: FlowContext) {
    await sendPasscode(ctx);
    return { passcode_resent: ctx.stash[PASSCODE_STASH.resent] === true, resend_after: RESEND_AFTER_SECONDS };
  },
};
