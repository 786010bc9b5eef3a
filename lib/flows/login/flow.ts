import { defineFlow } from "@/lib/flows/definition";
import { back } from "@/lib/flows/shared/actions/back";
import { registerClientCapabilities } from "@/lib/flows/shared/actions/register_client_capabilities";
import { resendPasscode } from "@/lib/flows/shared/actions/resend_passcode";
import { passcodeConfirmationState } from "@/lib/flows/shared/states/passcode_confirmation";
import { preflightState } from "@/lib/flows/shared/states/preflight";
import { successState } from "@/lib/flows/shared/states/success";
import { thirdpartyOauth } from "@/lib/flows/shared/actions/thirdparty_oauth";
import { thirdpartyState } from "@/lib/flows/shared/thirdparty";
import { exchangeToken } from "@/lib/flows/token-exchange/actions/exchange_token";
import { continueToLoginOtp } from "./actions/continue_to_login_otp";
import { continueToLoginSecurityKey } from "./actions/continue_to_login_security_key";
import { continueToPasscodeConfirmation } from "./actions/continue_to_passcode_confirmation";
import { continueToPasscodeConfirmationRecovery } from "./actions/continue_to_passcode_confirmation_recovery";
import { continueToPasswordLogin } from "./actions/continue_to_password_login";
import { continueWithLoginIdentifier } from "./actions/continue_with_login_identifier";
import { otpCodeValidate } from "./actions/otp_code_validate";
import { passwordLogin } from "./actions/password_login";
import { passwordRecovery } from "./actions/password_recovery";
import { verifyPasscode } from "./actions/verify_passcode";
import { webauthnGenerateRequestOptions } from "./actions/webauthn_generate_request_options";
import { webauthnVerifyAssertionResponse } from "./actions/webauthn_verify_assertion_response";
import { enterLoginInit } from "./states/login_init";
import { enterLoginPasskey } from "./states/login_passkey";

/**
 * `login`: identifier first (email, or email or username), or a passkey straight away (button or
 * conditional UI). A known user continues with the one method available or chooses among passkey,
 * password and a mailed code; after a password or a code, the user's second factor (security key or
 * authenticator app) when the tenant has MFA on. Or a third-party provider (`thirdparty_oauth`), or an
 * address of an SSO domain, through `thirdparty` and back with a one-time token (`exchange_token`).
 * Ends in `success` with a session.
 */
export const loginFlow = defineFlow({
  name: "login",
  ttlSeconds: 60 * 60,
  initialState: "preflight",
  states: {
    preflight: preflightState,
    login_init: {
      actions: [
        "continue_with_login_identifier",
        "webauthn_generate_request_options",
        "webauthn_verify_assertion_response",
        "thirdparty_oauth",
      ],
      enter: enterLoginInit,
    },
    login_method_chooser: {
      actions: [
        "continue_to_password_login",
        "continue_to_passcode_confirmation",
        "webauthn_generate_request_options",
        "back",
      ],
    },
    thirdparty: thirdpartyState,
    login_passkey: { actions: ["webauthn_verify_assertion_response", "back"], enter: enterLoginPasskey },
    login_password: { actions: ["password_login", "continue_to_passcode_confirmation_recovery", "back"] },
    login_password_recovery: { actions: ["password_recovery"] },
    passcode_confirmation: passcodeConfirmationState,
    login_security_key: { actions: ["webauthn_generate_request_options", "continue_to_login_otp"] },
    login_otp: { actions: ["otp_code_validate", "continue_to_login_security_key"] },
    success: successState,
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("login_init"),
    continue_with_login_identifier: continueWithLoginIdentifier,
    webauthn_generate_request_options: webauthnGenerateRequestOptions,
    webauthn_verify_assertion_response: webauthnVerifyAssertionResponse,
    continue_to_password_login: continueToPasswordLogin,
    continue_to_passcode_confirmation: continueToPasscodeConfirmation,
    continue_to_passcode_confirmation_recovery: continueToPasscodeConfirmationRecovery,
    password_login: passwordLogin,
    password_recovery: passwordRecovery,
    verify_passcode: verifyPasscode,
    resend_passcode: resendPasscode,
    otp_code_validate: otpCodeValidate,
    continue_to_login_otp: continueToLoginOtp,
    continue_to_login_security_key: continueToLoginSecurityKey,
    thirdparty_oauth: thirdpartyOauth,
    exchange_token: exchangeToken,
    back,
  },
});
