import { AppError } from "@/lib/errors";
import type { ActionDefinition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { newPasswordInput } from "@/lib/flows/shared/inputs";
import { prepareSignUpPassword } from "@/lib/users/flow-sign-up";
import { finish } from "../finish";

export const registerPassword: ActionDefinition = {
  description: "Submit a new password.",
  inputs: (ctx) => [newPasswordInput(ctx, "new_password")],
  available: (ctx) => ctx.tenant.platform.password.enabled,
  async run(ctx, input) {
    let passwordHash: string;
    try {
      passwordHash = await prepareSignUpPassword(ctx.tenant, String(input.new_password));
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      throw new FlowError("value_invalid_error", error.details[0] ?? error.message, {
        input: "new_password",
      });
    }
    return finish(ctx, { passwordHash }, ["pwd"], { login_method: "password" });
  },
};
