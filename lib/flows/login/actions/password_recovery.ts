import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import type { MfaMethod } from "@/lib/flows/payloads";
import { newPasswordErrors, newPasswordInput } from "@/lib/flows/shared/inputs";
import { hasSecondFactor, secondFactorsOf } from "@/lib/mfa";
import { setPasswordOfSelf } from "@/lib/accounts";
import { factorsDone } from "../factors";
import { KEY, identifiedUser } from "../stash";

export const passwordRecovery: ActionDefinition = {
  description: "Set a new password.",
  inputs: (ctx) => [newPasswordInput(ctx, "new_password")],
  available: (ctx) => ctx.stash[KEY.recovery] === "verified" && ctx.stash[KEY.loginMethod] === "passcode",
  inputErrors: newPasswordErrors("new_password"),
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    // The second factor, when the user has one, was proven before this state: check it again, so
    // that a factor added since cannot be skipped.
    const mfaDone = ctx.stash[KEY.mfaDone] as MfaMethod | undefined;
    if (!mfaDone && hasSecondFactor(await secondFactorsOf(ctx.tenant, user.id))) {
      throw new FlowError("operation_not_permitted_error", "The second factor was not proven");
    }
    await setPasswordOfSelf(ctx.tenant, user, { password: String(input.new_password) }, ctx.audit);
    delete ctx.stash[KEY.recovery];
    // The mailed code (and the second factor) were the proof of this login; the new password is set
    // for the next one.
    return factorsDone(ctx, user, mfaDone);
  },
};
