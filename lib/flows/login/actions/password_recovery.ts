import { AppError } from "@/lib/errors";
import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import type { MfaMethod } from "@/lib/flows/payloads";
import { newPasswordInput } from "@/lib/flows/shared/inputs";
import { hasSecondFactor, secondFactorsOf } from "@/lib/mfa";
import { setPassword } from "@/lib/passwords";
import { factorsDone } from "../factors";
import { KEY, identifiedUser } from "../stash";

export const passwordRecovery: ActionDefinition = {
  description: "Set a new password.",
  inputs: (ctx) => [newPasswordInput(ctx, "new_password")],
  available: (ctx) => ctx.stash[KEY.recovery] === "verified" && ctx.stash[KEY.loginMethod] === "passcode",
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    // The second factor, when the user has one, was proven before this state: check it again, so
    // that a factor added since cannot be skipped.
    const mfaDone = ctx.stash[KEY.mfaDone] as MfaMethod | undefined;
    if (!mfaDone && hasSecondFactor(await secondFactorsOf(ctx.tenant, user.id))) {
      throw new FlowError("operation_not_permitted_error", "The second factor was not proven");
    }
    try {
      await setPassword(ctx.tenant, user, { password: String(input.new_password) }, ctx.audit);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      throw new FlowError("value_invalid_error", error.details[0] ?? error.message, {
        input: "new_password",
        cause: error,
      });
    }
    delete ctx.stash[KEY.recovery];
    // The mailed code (and the second factor) were the proof of this login; the new password is set
    // for the next one.
    return factorsDone(ctx, user, mfaDone);
  },
};
