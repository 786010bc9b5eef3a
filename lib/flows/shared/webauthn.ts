import { RegistrationResponse } from "@/lib/ceremonies/webauthn/responses";
import type { FlowContext } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { STASH } from "./stash";

/** Whether the client said it can run WebAuthn ceremonies (true until it says otherwise). */
export const webauthnAvailable = (ctx: FlowContext): boolean => ctx.stash[STASH.webauthnAvailable] !== false;

/** Passkeys are on for the tenant and the client said it can run WebAuthn. */
export const passkeysUsable = (ctx: FlowContext): boolean =>
  ctx.tenant.platform.passkeys.enabled && webauthnAvailable(ctx);

/** The attestation response sent as `public_key` (`ATTESTATION_INPUT`); else an error on that input. */
export function attestationOf(input: Record<string, unknown>) {
  const parsed = RegistrationResponse.safeParse(input.public_key);
  if (!parsed.success) {
    throw new FlowError("value_invalid_error", "Not a WebAuthn attestation response", {
      input: "public_key",
    });
  }
  return parsed.data;
}
