import type { ActionDefinition } from "@/lib/flows/definition";
import { PASSWORD_INPUT } from "@/lib/flows/shared/inputs";
import { verifyUserPassword } from "@/lib/passwords/verify";
import { firstFactorDone } from "../factors";
import { limitAttempts } from "../limit-attempts";
import { identifiedUser, methodsOf } from "../stash";

export const passwordLogin: ActionDefinition = {
  description: "Login with a password.",
  inputs: [PASSWORD_INPUT],
  available: (ctx) => ctx.tenant.platform.password.enabled && methodsOf(ctx).password,
  // Hanko's answer to wrong credentials: `value_invalid_error` on the password input (a locked
  // password is FLOW_ERRORS' `operation_not_permitted_error`).
  inputErrors: {
    PASSWORD_INVALID: { input: "password", code: "value_invalid_error", message: "Wrong password" },
  },
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    await limitAttempts(ctx, user);
    await verifyUserPassword(ctx.tenant, user, String(input.password), ctx.audit);
    return firstFactorDone(ctx, user, "password");
  },
};
