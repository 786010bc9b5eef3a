import type { ActionDefinition } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";
import { STASH } from "../stash";

export const webauthnCredentialCreate: ActionDefinition = {
  description: "Create a passkey.",
  available: passkeysUsable,
  async run(ctx) {
    ctx.stash[STASH.creating] = "passkey";
    return { to: "webauthn_credential_verification" };
  },
};
