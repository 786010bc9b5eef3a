import { defineFlow } from "@/lib/flows/definition";
import { registerClientCapabilities } from "@/lib/flows/shared/actions/register_client_capabilities";
import { resendPasscode } from "@/lib/flows/shared/actions/resend_passcode";
import { passcodeConfirmationState } from "@/lib/flows/shared/states/passcode_confirmation";
import { preflightState } from "@/lib/flows/shared/states/preflight";
import { successState } from "@/lib/flows/shared/states/success";
import { thirdpartyOauth } from "@/lib/flows/shared/actions/thirdparty_oauth";
import { thirdpartyState } from "@/lib/flows/shared/thirdparty";
import { exchangeToken } from "@/lib/flows/token-exchange/actions/exchange_token";
import { back } from "./actions/back";
import { continueToPasskeyRegistration } from "./actions/continue_to_passkey_registration";
import { continueToPasswordRegistration } from "./actions/continue_to_password_registration";
import { registerLoginIdentifier } from "./actions/register_login_identifier";
import { registerPassword } from "./actions/register_password";
import { skip } from "./actions/skip";
import { verifyPasscode } from "./actions/verify_passcode";
import { webauthnGenerateCreationOptions } from "./actions/webauthn_generate_creation_options";
import { webauthnVerifyAttestationResponse } from "./actions/webauthn_verify_attestation_response";
import { enterOnboardingVerifyPasskeyAttestation } from "./states/onboarding_verify_passkey_attestation";

/**
 * `registration`: an address (and a username when the tenant has them), the address proved by a
 * passcode, then a passkey or a password (or, where allowed, neither), and the user is created at the
 * very end with all of it in one transaction (Hanko's CreateUser hook): an abandoned sign-up leaves
 * no user behind. States and actions are Hanko's.
 */
export const registrationFlow = defineFlow({
  name: "registration",
  ttlSeconds: 60 * 60,
  initialState: "preflight",
  states: {
    preflight: preflightState,
    registration_init: { actions: ["register_login_identifier", "thirdparty_oauth"] },
    thirdparty: thirdpartyState,
    passcode_confirmation: passcodeConfirmationState,
    credential_onboarding_chooser: {
      actions: ["continue_to_passkey_registration", "continue_to_password_registration", "skip", "back"],
    },
    onboarding_create_passkey: { actions: ["webauthn_generate_creation_options", "skip", "back"] },
    onboarding_verify_passkey_attestation: {
      actions: ["webauthn_verify_attestation_response", "back"],
      enter: enterOnboardingVerifyPasskeyAttestation,
    },
    password_creation: { actions: ["register_password", "skip", "back"] },
    success: successState,
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("registration_init"),
    register_login_identifier: registerLoginIdentifier,
    verify_passcode: verifyPasscode,
    resend_passcode: resendPasscode,
    continue_to_passkey_registration: continueToPasskeyRegistration,
    continue_to_password_registration: continueToPasswordRegistration,
    webauthn_generate_creation_options: webauthnGenerateCreationOptions,
    webauthn_verify_attestation_response: webauthnVerifyAttestationResponse,
    register_password: registerPassword,
    thirdparty_oauth: thirdpartyOauth,
    exchange_token: exchangeToken,
    skip,
    back,
  },
});
