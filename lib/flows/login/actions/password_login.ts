import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { PASSWORD_INPUT } from "@/lib/flows/shared/inputs";
import { PasswordLocked, PasswordRejected, verifyUserPassword } from "@/lib/passwords/verify";
import { firstFactorDone } from "../factors";
import { limitAttempts } from "../limit-attempts";
import { identifiedUser, methodsOf } from "../stash";

export const passwordLogin: ActionDefinition = {
  description: "Login with a password.",
  inputs: [PASSWORD_INPUT],
  available: (ctx) => ctx.tenant.platform.password.enabled && methodsOf(ctx).password,
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    await limitAttempts(ctx, user);
    try {
      await verifyUserPassword(ctx.tenant, user, String(input.password), ctx.audit);
    } catch (error) {
      // Hanko's answer to wrong credentials: `value_invalid_error` on the password input.
      if (error instanceof PasswordRejected) {
        throw new FlowError("value_invalid_error", "Wrong password", { input: "password", cause: error });
      }
      if (error instanceof PasswordLocked) {
        throw new FlowError(
          "operation_not_permitted_error",
          "The password is locked for a while after too many failed attempts: try again later, or use 'forgot password' to set a new one",
          { cause: error },
        );
      }
      throw error;
    }
    return firstFactorDone(ctx, user, "password");
  },
};
