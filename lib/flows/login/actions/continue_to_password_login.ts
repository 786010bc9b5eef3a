import type { ActionDefinition } from "@/lib/flows/definition";
import { methodsOf } from "../stash";

export const continueToPasswordLogin: ActionDefinition = {
  description: "Continue to the password login.",
  available: (ctx) => ctx.tenant.platform.password.enabled && methodsOf(ctx).password,
  run: async () => ({ to: "login_password" }),
};
