import type { ActionDefinition } from "@/lib/flows/definition";
import { toPasscode } from "../factors";
import { methodsOf } from "../stash";

export const continueToPasscodeConfirmation: ActionDefinition = {
  description: "Send a login code to the email address.",
  available: (ctx) => methodsOf(ctx).passcode,
  run: async (ctx) => toPasscode(ctx, undefined),
};
