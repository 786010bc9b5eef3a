import type { ActionDefinition } from "@/lib/flows/definition";
import { mfaOf } from "../stash";

export const continueToLoginSecurityKey: ActionDefinition = {
  description: "Use a security key instead.",
  available: (ctx) => mfaOf(ctx).security_key,
  run: async () => ({ to: "login_security_key" }),
};
