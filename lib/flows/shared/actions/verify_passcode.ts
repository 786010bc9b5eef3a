import { checkPasscode, type CheckedPasscode } from "@/lib/passcodes";
import type { ActionDefinition, FlowContext, Transition } from "@/lib/flows/definition";
import { FlowError, type InputErrorRule } from "@/lib/flows/errors";
import { PASSCODE_INPUT } from "../inputs";
import { PASSCODE_STASH } from "../passcode";

// Hanko's `verify_passcode` (flow/passcode/action_verify_passcode.go) answers a wrong, unknown or
// expired code `form_data_invalid_error` with `passcode_invalid` on the `code` input.
const PASSCODE_INVALID: InputErrorRule = {
  input: "code",
  code: "passcode_invalid",
  message: "The passcode is invalid",
};

/** `verify_passcode`: checks the code mailed on entering `passcode_confirmation`, then `onVerified`. */
export function verifyPasscodeAction(
  onVerified: (ctx: FlowContext, checked: CheckedPasscode) => Promise<Transition>,
): ActionDefinition {
  return {
    description: "Check the code from the email.",
    inputs: [PASSCODE_INPUT],
    inputErrors: {
      PASSCODE_INVALID,
      PASSCODE_USED: PASSCODE_INVALID,
      PASSCODE_NOT_FOUND: PASSCODE_INVALID,
      PASSCODE_EXPIRED: PASSCODE_INVALID,
    },
    async run(ctx, input) {
      const id = ctx.stash[PASSCODE_STASH.id];
      if (typeof id !== "string")
        throw new FlowError("passcode_invalid", "No passcode was sent", { input: "code" });
      const checked = await checkPasscode(ctx.tenant, { id, code: String(input.code) }, ctx.audit);
      delete ctx.stash[PASSCODE_STASH.id];
      return onVerified(ctx, checked);
    },
  };
}
