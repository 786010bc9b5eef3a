import type { ActionDefinition } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";

/** The options are the payload of the state it leads to (`onboarding_verify_passkey_attestation`). */
export const webauthnGenerateCreationOptions: ActionDefinition = {
  description: "Get the options to create a passkey.",
  available: passkeysUsable,
  // The state it leads to stores a challenge, which a lost step leaves unused until it expires.
  writesOnlyTheFlow: true,
  run: async () => ({ to: "onboarding_verify_passkey_attestation" }),
};
