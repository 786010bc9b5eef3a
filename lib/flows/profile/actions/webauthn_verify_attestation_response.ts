import { finalizePublicRegistration } from "@/lib/ceremonies/webauthn";
import { finalizeSecurityKeyRegistration } from "@/lib/ceremonies/webauthn/security-keys";
import type { ActionDefinition } from "@/lib/flows/definition";
import { ATTESTATION_INPUT } from "@/lib/flows/shared/inputs";
import { attestationOf } from "@/lib/flows/shared/webauthn";
import { sessionOf } from "../profile";
import { STASH } from "../stash";

export const webauthnVerifyAttestationResponse: ActionDefinition = {
  description: "Send the new credential (the result of navigator.credentials.create).",
  inputs: [ATTESTATION_INPUT],
  async run(ctx, input) {
    const response = attestationOf(input);
    const user = sessionOf(ctx).user;
    const finalize =
      ctx.stash[STASH.creating] === "security_key"
        ? finalizeSecurityKeyRegistration
        : finalizePublicRegistration;
    await finalize(ctx.tenant, user, response, ctx.audit);
    return { to: "profile_init" };
  },
};
