import type { ActionDefinition } from "@/lib/flows/definition";
import { mfaOf } from "../stash";

export const continueToLoginOtp: ActionDefinition = {
  description: "Use the authenticator app instead.",
  available: (ctx) => mfaOf(ctx).totp,
  run: async () => ({ to: "login_otp" }),
};
