import type { ActionDefinition } from "@/lib/flows/definition";
import { toPasscode } from "../factors";
import { methodsOf } from "../stash";

export const continueToPasscodeConfirmationRecovery: ActionDefinition = {
  description: "Forgot the password: prove the email address with a code, then set a new password.",
  available: (ctx) => methodsOf(ctx).passcode,
  run: async (ctx) => toPasscode(ctx, "requested"),
};
