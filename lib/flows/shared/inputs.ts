import { MAX_PASSWORD_LENGTH, minPasswordLength } from "@/lib/passwords";
import type { FlowContext, InputSpec } from "@/lib/flows/definition";
import type { InputErrorRules } from "@/lib/flows/errors";
import { MAX_EMAIL_LENGTH } from "@/lib/flows/inputs";

// The inputs more than one action asks for, declared once.

/** An address to log in with (the engine still bounds it at `MAX_EMAIL_LENGTH`). */
export const LOGIN_EMAIL_INPUT: InputSpec = { name: "email", type: "email", required: true };

/** An address for an account (sign-up, profile): its bound is told to the client. */
export const EMAIL_INPUT: InputSpec = { ...LOGIN_EMAIL_INPUT, maxLength: MAX_EMAIL_LENGTH };

/** A password typed to log in: no minimum, so one set under an older rule still works. */
export const PASSWORD_INPUT: InputSpec = {
  name: "password",
  type: "password",
  required: true,
  maxLength: MAX_PASSWORD_LENGTH,
};

/**
 * A password being chosen, at least the tenant's minimum long: `new_password` in the login's recovery
 * and in the registration (Hanko's names), `password` in the profile.
 */
export function newPasswordInput(ctx: FlowContext, name: "new_password" | "password"): InputSpec {
  return { ...PASSWORD_INPUT, name, minLength: minPasswordLength(ctx.tenant) };
}

/** A chosen password the tenant's rules refuse: `value_invalid_error` on its input. */
export function newPasswordErrors(input: "new_password" | "password"): InputErrorRules {
  return {
    PASSWORD_TOO_SHORT: { input, code: "value_invalid_error" },
    PASSWORD_TOO_LONG: { input, code: "value_invalid_error" },
  };
}

/** A username being chosen, within the tenant's bounds. */
export function usernameInput(ctx: FlowContext, required: boolean): InputSpec {
  const { minLength, maxLength } = ctx.tenant.platform.username;
  return { name: "username", type: "string", required, minLength, maxLength };
}

const sixDigitCode = (name: string): InputSpec => ({
  name,
  type: "string",
  required: true,
  minLength: 6,
  maxLength: 6,
});

/** The code of a mailed passcode. */
export const PASSCODE_INPUT = sixDigitCode("code");

/** A code the user's authenticator app shows (TOTP). */
export const OTP_CODE_INPUT = sixDigitCode("otp_code");

/** A new WebAuthn credential: the result of `navigator.credentials.create()`. */
export const ATTESTATION_INPUT: InputSpec = { name: "public_key", type: "json", required: true };
