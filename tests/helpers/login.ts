import { Secret, TOTP } from "otpauth";
import type { FlowResponse } from "@/lib/flows";
import { newOtpSecret, saveOtpSecret } from "@/lib/mfa";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { act, expectState, flowIdOf, postHref, startFlow, type FlowCall } from "./flows";
import { outboxCode } from "./smtp";

/** What the elements report in `preflight` by default. */
export const CAPABILITIES = {
  webauthn_available: true,
  webauthn_conditional_mediation_available: false,
  webauthn_platform_authenticator_available: true,
};

/** `POST /login`, then the capabilities the elements report: `login_init`. */
export async function loginInit(tenant: Tenant, capabilities: Partial<typeof CAPABILITIES> = {}) {
  const preflight = expectState(await startFlow(tenant, "login"), "preflight", [
    "register_client_capabilities",
  ]);
  const init = await act(tenant, preflight, "register_client_capabilities", {
    ...CAPABILITIES,
    ...capabilities,
  });
  return expectState(init, "login_init");
}

/** `continue_with_login_identifier` with the input the state asks for (`email` or `identifier`). */
export function identify(tenant: Tenant, state: FlowResponse, value: string): Promise<FlowCall> {
  const inputs = state.actions.continue_with_login_identifier!.inputs;
  return act(tenant, state, "continue_with_login_identifier", {
    [inputs.email ? "email" : "identifier"]: value,
  });
}

/** An authenticator-app secret for the user; returns the base32 secret. */
export async function addTotp(tenant: Tenant, user: User): Promise<string> {
  const { secret } = await newOtpSecret(tenant, "test");
  await saveOtpSecret(tenant, user.id, secret);
  return secret;
}

/** The app's code now, or `steps` time steps later (within the accepted window). */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Posts an action the state does not offer (its href built by hand) with the state's CSRF token. */
export function actNotOffered(
  tenant: Tenant,
  state: FlowResponse,
  action: string,
  input: Record<string, unknown> = {},
) {
  return postHref(tenant, `/login?action=${action}%40${flowIdOf(state)}`, {
    input_data: input,
    csrf_token: state.csrf_token,
  });
}

/**
 * A login by address that chooses the password, then "forgot password": the state asking for the mailed
 * code, and that code (read from the dev outbox).
 */
export async function forgotPassword(tenant: Tenant, mail: string) {
  const chooser = expectState(await identify(tenant, await loginInit(tenant), mail), "login_method_chooser");
  const form = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
  const passcode = expectState(
    await act(tenant, form, "continue_to_passcode_confirmation_recovery"),
    "passcode_confirmation",
  );
  return { passcode, code: await outboxCode(tenant.id, mail) };
}
