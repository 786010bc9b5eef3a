import type { ActionDefinition } from "@/lib/flows/definition";
import { finishWithoutCredential } from "../finish";
import { previousState } from "../stash";

/**
 * `skip` creates the account without a credential, so it needs passcode login; from the chooser's
 * sub-states the chooser is where to skip (Hanko), and passkeys may be skipped only when optional.
 */
export const skip: ActionDefinition = {
  description: "Skip",
  available(ctx) {
    const { passkeys, passcodes } = ctx.tenant.platform;
    if (!passcodes.enabled) return false;
    if (ctx.state === "credential_onboarding_chooser") return passkeys.optional;
    if (previousState(ctx) === "credential_onboarding_chooser") return false;
    return ctx.state === "password_creation" || passkeys.optional;
  },
  run: async (ctx) => finishWithoutCredential(ctx),
};
