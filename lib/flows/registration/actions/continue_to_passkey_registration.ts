import type { ActionDefinition } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";

export const continueToPasskeyRegistration: ActionDefinition = {
  description: "Create a passkey.",
  available: passkeysUsable,
  run: async () => ({ to: "onboarding_create_passkey" }),
};
