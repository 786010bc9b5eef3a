import { initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import { initializeSecurityKeyRegistration } from "@/lib/ceremonies/webauthn/security-keys";
import type { FlowContext } from "@/lib/flows/definition";
import { sessionOf } from "../profile";
import { STASH } from "../stash";

/** `webauthn_credential_verification`: creation options for what is being registered. */
export async function enterWebauthnCredentialVerification(ctx: FlowContext) {
  const user = sessionOf(ctx).user;
  const options =
    ctx.stash[STASH.creating] === "security_key"
      ? await initializeSecurityKeyRegistration(ctx.tenant, user, ctx.audit)
      : await initializePublicRegistration(ctx.tenant, user, ctx.audit);
  return { creation_options: { publicKey: options } };
}
