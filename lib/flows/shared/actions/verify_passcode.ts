import { checkPasscode, type CheckedPasscode } from "@/lib/passcodes";
import type { ActionDefinition, FlowContext, Transition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { PASSCODE_INPUT } from "../inputs";
import { PASSCODE_STASH, passcodeFailure } from "../passcode";

/** `verify_passcode`: checks the code mailed on entering `passcode_confirmation`, then `onVerified`. */
export function verifyPasscodeAction(
  onVerified: (ctx: FlowContext, checked: CheckedPasscode) => Promise<Transition>,
): ActionDefinition {
  return {
    description: "Check the code from the email.",
    inputs: [PASSCODE_INPUT],
    async run(ctx, input) {
      const id = ctx.stash[PASSCODE_STASH.id];
      if (typeof id !== "string") throw new FlowError("passcode_invalid", "No passcode was sent");
      let checked: CheckedPasscode;
      try {
        checked = await checkPasscode(ctx.tenant, { id, code: String(input.code) }, ctx.audit);
      } catch (error) {
        throw passcodeFailure(error);
      }
      delete ctx.stash[PASSCODE_STASH.id];
      return onVerified(ctx, checked);
    },
  };
}
