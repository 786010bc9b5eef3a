import type { FlowAction, FlowInput, FlowState } from "./client";

/** Actions the element runs by itself: they never get a button. */
export const AUTOMATIC = new Set([
  "register_client_capabilities",
  // Run with `?hanko_token=` when the browser comes back from a provider.
  "exchange_token",
  "webauthn_verify_assertion_response",
  "webauthn_verify_attestation_response",
]);
/** Actions with one button per provider (the `provider` input's allowed values). */
export const PROVIDER_ACTIONS = new Set(["thirdparty_oauth", "connect_thirdparty_oauth_provider"]);
/** Actions shown as secondary buttons, after the main ones. */
export const SECONDARY = new Set(["back", "skip", "resend_passcode"]);

/** An error the element found itself (a failed request, a cancelled ceremony), shown as the flow's are. */
export interface LocalError {
  code: string;
  message: string;
}

/**
 * The error of an input the page does not show (a provider button's `redirect_to`): its own message says
 * more than "check your input" about a field nobody can see.
 */
export function hiddenInputError(state: FlowState): LocalError | undefined {
  if (state.error?.code !== "form_data_invalid_error") return undefined;
  for (const action of Object.values(state.actions ?? {})) {
    for (const input of Object.values(action.inputs ?? {})) {
      if (input.hidden && input.error) return { code: "hidden_input_error", message: input.error.message };
    }
  }
  return undefined;
}

export function visibleInputs(action: FlowAction): FlowInput[] {
  return Object.values(action.inputs ?? {}).filter((input) => !input.hidden);
}

/** `username webauthn` on the login identifier, so the browser offers passkeys there (autofill). */
export function autocompleteFor(state: string, input: FlowInput): string {
  if (state === "login_init" && (input.name === "email" || input.name === "identifier"))
    return "username webauthn";
  if (input.name === "email") return "email";
  if (input.name === "username" || input.name === "identifier") return "username";
  if (input.name === "code" || input.name === "otp_code") return "one-time-code";
  if (input.type === "password") return state === "login_password" ? "current-password" : "new-password";
  return "off";
}
