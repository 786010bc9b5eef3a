import type { ActionDefinition } from "@/lib/flows/definition";
import { deleteOwnCredential } from "../credentials";
import { credentialIdInput } from "../inputs";
import { canLogInWithout, when } from "../profile";

export const webauthnCredentialDelete: ActionDefinition = {
  description: "Delete a passkey.",
  inputs: [credentialIdInput("passkey_id")],
  // Hanko's rule: the last passkey goes only when passkeys are optional and another way in remains.
  available: when(
    (profile, tenant) =>
      tenant.platform.passkeys.enabled &&
      (profile.passkeys.length > 1 ||
        (profile.passkeys.length === 1 &&
          tenant.platform.passkeys.optional &&
          canLogInWithout(tenant, profile, "passkey"))),
  ),
  async run(ctx, input) {
    await deleteOwnCredential(ctx, String(input.passkey_id), false);
    return { stay: true };
  },
};
