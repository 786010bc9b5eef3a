import type { ActionDefinition } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";

/** The options are the payload of the state it leads to (`onboarding_verify_passkey_attestation`). */
export const webauthnGenerateCreationOptions: ActionDefinition = {
  description: "Get the options to create a passkey.",
  available: passkeysUsable,
  run: async () => ({ to: "onboarding_verify_passkey_attestation" }),
};
