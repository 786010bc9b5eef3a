import type { ActionDefinition } from "@/lib/flows/definition";

export const continueToPasswordRegistration: ActionDefinition = {
  description: "Set a password.",
  available: (ctx) => ctx.tenant.platform.password.enabled,
  run: async () => ({ to: "password_creation" }),
};
