import type { FlowContext } from "@/lib/flows/definition";
import { passkeysUsable } from "@/lib/flows/shared/webauthn";

type CredentialState = "credential_onboarding_chooser" | "onboarding_create_passkey" | "password_creation";

/**
 * Where the credential step starts (Hanko's `generateRegistrationStates`): the chooser when passkeys
 * (on a client that can create them) and passwords are both enabled, else the one that is; none when
 * neither is, and the account then logs in with passcodes only.
 */
export function credentialState(ctx: FlowContext): CredentialState | undefined {
  const passkeys = passkeysUsable(ctx);
  const passwords = ctx.tenant.platform.password.enabled;
  if (passkeys && passwords) return "credential_onboarding_chooser";
  if (passkeys) return "onboarding_create_passkey";
  return passwords ? "password_creation" : undefined;
}
