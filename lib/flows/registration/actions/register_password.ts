import type { ActionDefinition } from "@/lib/flows/definition";
import { newPasswordErrors, newPasswordInput } from "@/lib/flows/shared/inputs";
import { prepareSignUpPassword } from "@/lib/accounts";
import { finish } from "../finish";

export const registerPassword: ActionDefinition = {
  description: "Submit a new password.",
  inputs: (ctx) => [newPasswordInput(ctx, "new_password")],
  available: (ctx) => ctx.tenant.platform.password.enabled,
  inputErrors: newPasswordErrors("new_password"),
  async run(ctx, input) {
    const passwordHash = await prepareSignUpPassword(ctx.tenant, String(input.new_password));
    return finish(ctx, { passwordHash }, ["pwd"], { login_method: "password" });
  },
};
