import { defineFlow } from "@/lib/flows/definition";
import { back } from "@/lib/flows/shared/actions/back";
import { registerClientCapabilities } from "@/lib/flows/shared/actions/register_client_capabilities";
import { resendPasscode } from "@/lib/flows/shared/actions/resend_passcode";
import { passcodeConfirmationState } from "@/lib/flows/shared/states/passcode_confirmation";
import { preflightState } from "@/lib/flows/shared/states/preflight";
import { thirdpartyState } from "@/lib/flows/shared/thirdparty";
import { accountDelete } from "./actions/account_delete";
import { connectThirdpartyOauthProvider } from "./actions/connect_thirdparty_oauth_provider";
import { disconnectThirdpartyOauthProvider } from "./actions/disconnect_thirdparty_oauth_provider";
import { exchangeToken } from "./actions/exchange_token";
import { continueToOtpSecretCreation } from "./actions/continue_to_otp_secret_creation";
import { emailCreate } from "./actions/email_create";
import { emailDelete } from "./actions/email_delete";
import { emailSetPrimary } from "./actions/email_set_primary";
import { emailVerify } from "./actions/email_verify";
import { otpCodeVerify } from "./actions/otp_code_verify";
import { otpSecretDelete } from "./actions/otp_secret_delete";
import { passwordCreate } from "./actions/password_create";
import { patchMetadata } from "./actions/patch_metadata";
import { passwordDelete } from "./actions/password_delete";
import { passwordUpdate } from "./actions/password_update";
import { securityKeyCreate } from "./actions/security_key_create";
import { securityKeyDelete } from "./actions/security_key_delete";
import { sessionDelete } from "./actions/session_delete";
import { usernameCreate } from "./actions/username_create";
import { usernameDelete } from "./actions/username_delete";
import { usernameUpdate } from "./actions/username_update";
import { verifyPasscode } from "./actions/verify_passcode";
import { webauthnCredentialCreate } from "./actions/webauthn_credential_create";
import { webauthnCredentialDelete } from "./actions/webauthn_credential_delete";
import { webauthnCredentialRename } from "./actions/webauthn_credential_rename";
import { webauthnVerifyAttestationResponse } from "./actions/webauthn_verify_attestation_response";
import { enterMfaOtpSecretCreation } from "./states/mfa_otp_secret_creation";
import { enterProfileInit } from "./states/profile_init";
import { enterWebauthnCredentialVerification } from "./states/webauthn_credential_verification";

/**
 * `profile`: the signed-in user's self-service (`<hanko-profile>`). The engine authenticates the
 * session before the start and every step; every action works on that session's user, and ids of
 * anything else (another user's address, credential, session or identity) are not found. Connecting a
 * provider goes through `thirdparty` and comes back to it (`exchange_token` or `back`). Actions are offered
 * only when they apply, which is what the elements read to show each section.
 */
export const profileFlow = defineFlow({
  name: "profile",
  ttlSeconds: 60 * 60,
  initialState: "preflight",
  requiresSession: true,
  states: {
    preflight: preflightState,
    profile_init: {
      actions: [
        "account_delete",
        "continue_to_otp_secret_creation",
        "email_create",
        "email_delete",
        "email_set_primary",
        "email_verify",
        "otp_secret_delete",
        "password_create",
        "password_delete",
        "password_update",
        "patch_metadata",
        "security_key_create",
        "security_key_delete",
        "session_delete",
        "username_create",
        "username_delete",
        "username_update",
        "webauthn_credential_create",
        "webauthn_credential_delete",
        "webauthn_credential_rename",
        "connect_thirdparty_oauth_provider",
        "disconnect_thirdparty_oauth_provider",
      ],
      enter: enterProfileInit,
    },
    thirdparty: thirdpartyState,
    passcode_confirmation: passcodeConfirmationState,
    webauthn_credential_verification: {
      actions: ["webauthn_verify_attestation_response", "back"],
      enter: enterWebauthnCredentialVerification,
    },
    mfa_otp_secret_creation: { actions: ["otp_code_verify", "back"], enter: enterMfaOtpSecretCreation },
    account_deleted: { actions: [] },
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("profile_init"),
    account_delete: accountDelete,
    continue_to_otp_secret_creation: continueToOtpSecretCreation,
    email_create: emailCreate,
    email_delete: emailDelete,
    email_set_primary: emailSetPrimary,
    email_verify: emailVerify,
    verify_passcode: verifyPasscode,
    resend_passcode: resendPasscode,
    otp_code_verify: otpCodeVerify,
    otp_secret_delete: otpSecretDelete,
    password_create: passwordCreate,
    password_delete: passwordDelete,
    password_update: passwordUpdate,
    patch_metadata: patchMetadata,
    security_key_create: securityKeyCreate,
    security_key_delete: securityKeyDelete,
    session_delete: sessionDelete,
    username_create: usernameCreate,
    username_delete: usernameDelete,
    username_update: usernameUpdate,
    webauthn_credential_create: webauthnCredentialCreate,
    webauthn_credential_delete: webauthnCredentialDelete,
    webauthn_credential_rename: webauthnCredentialRename,
    webauthn_verify_attestation_response: webauthnVerifyAttestationResponse,
    connect_thirdparty_oauth_provider: connectThirdpartyOauthProvider,
    disconnect_thirdparty_oauth_provider: disconnectThirdpartyOauthProvider,
    exchange_token: exchangeToken,
    back,
  },
});
