import { randomUUID } from "node:crypto";
import { issueSignUpCreationOptions, verifySignUpPasskey } from "@/lib/ceremonies/webauthn/sign-up";
import { RegistrationResponse } from "@/lib/ceremonies/webauthn/responses";
import { AppError } from "@/lib/errors";
import type { CheckedPasscode } from "@/lib/passcodes";
import { MAX_PASSWORD_LENGTH, minPasswordLength } from "@/lib/passwords";
import type { AuthMethod } from "@/lib/sessions";
import {
  SignUpConflict,
  completeFlowSignUp,
  emailTaken,
  prepareSignUpPassword,
  usernameTaken,
  type FlowSignUp,
} from "@/lib/users/flow-sign-up";
import { USERNAME_PATTERN } from "@/lib/users/lookup";
import {
  defineFlow,
  type ActionDefinition,
  type FlowContext,
  type InputSpec,
  type Transition,
} from "../definition";
import { FlowError, type FlowErrorCode } from "../errors";
import type { LastLogin } from "../payloads";
import { passcodeConfirmation, setPasscodeTarget } from "./passcode";
import { preflightState, registerClientCapabilities, signIn, successState, passkeysUsable } from "./shared";

/** What the flow collects on its way; nothing is written to users, emails or credentials before `success`. */
const KEY = {
  /** Generated at `register_login_identifier`: the user row's id and the passkey's user handle. */
  userId: "user_id",
  email: "email",
  username: "username",
  /** The address a passcode of this flow proved. */
  verifiedEmail: "verified_email",
  /** The challenge of this flow's passkey ceremony: only its attestation is accepted. */
  challenge: "webauthn_challenge",
} as const;

type CredentialState = "credential_onboarding_chooser" | "onboarding_create_passkey" | "password_creation";

const MAX_EMAIL_LENGTH = 254;

const text = (ctx: FlowContext, key: string): string | undefined => {
  const value = ctx.stash[key];
  return typeof value === "string" ? value : undefined;
};

const previousState = (ctx: FlowContext) => ctx.history.at(-1);
const emailVerified = (ctx: FlowContext) =>
  text(ctx, KEY.email) !== undefined && text(ctx, KEY.verifiedEmail) === text(ctx, KEY.email);

/**
 * Where the credential step starts (Hanko's `generateRegistrationStates`): the chooser when passkeys
 * (on a client that can create them) and passwords are both enabled, else the one that is; none when
 * neither is, and the account then logs in with passcodes only.
 */
function credentialState(ctx: FlowContext): CredentialState | undefined {
  const passkeys = passkeysUsable(ctx);
  const passwords = ctx.tenant.platform.password.enabled;
  if (passkeys && passwords) return "credential_onboarding_chooser";
  if (passkeys) return "onboarding_create_passkey";
  return passwords ? "password_creation" : undefined;
}

/** `email` always (the address verification and passcode login need it); `username` when enabled. */
function identifierInputs(ctx: FlowContext): InputSpec[] {
  const { username } = ctx.tenant.platform;
  const inputs: InputSpec[] = [{ name: "email", type: "email", required: true, maxLength: MAX_EMAIL_LENGTH }];
  if (username.enabled) {
    inputs.push({
      name: "username",
      type: "string",
      required: username.required,
      minLength: username.minLength,
      maxLength: username.maxLength,
    });
  }
  return inputs;
}

const CONFLICT_CODES: Record<SignUpConflict["field"], FlowErrorCode> = {
  email: "email_already_exists",
  username: "username_already_exists",
  credential: "webauthn_credential_already_exists",
};

/**
 * Creates the user with everything the flow collected and starts its session. A concurrent sign-up
 * that took the address or username first makes this one fail with Hanko's code for it; the flow
 * keeps its state and nothing of this sign-up is written.
 */
async function finish(
  ctx: FlowContext,
  credential: Pick<FlowSignUp, "passkey" | "passwordHash">,
  amr: AuthMethod[],
  lastLogin: LastLogin | undefined,
): Promise<Transition> {
  const userId = text(ctx, KEY.userId);
  const email = text(ctx, KEY.email);
  if (!userId || !email) throw new Error("registration: no identifier in the stash");
  const signUp: FlowSignUp = {
    flowId: ctx.flowId,
    userId,
    email,
    emailVerified: emailVerified(ctx),
    username: text(ctx, KEY.username) ?? null,
    ...credential,
  };
  try {
    const user = await completeFlowSignUp(ctx.tenant, signUp, ctx.audit);
    return await signIn(ctx, user, amr, lastLogin);
  } catch (error) {
    if (error instanceof SignUpConflict) {
      throw new FlowError(CONFLICT_CODES[error.field], error.message, { cause: error });
    }
    throw error;
  }
}

/** No credential: the account logs in with passcodes to its address (`otp` when this flow proved it). */
const finishWithoutCredential = (ctx: FlowContext) =>
  emailVerified(ctx)
    ? finish(ctx, {}, ["otp"], { login_method: "passcode" })
    : finish(ctx, {}, [], undefined);

/** After the address is proved: the credential step, or the account right away when there is none. */
async function onEmailVerified(ctx: FlowContext, checked: CheckedPasscode): Promise<Transition> {
  if (checked.address !== text(ctx, KEY.email) || checked.purpose !== "email_verification") {
    throw new FlowError("passcode_invalid", "The passcode is invalid (it was not sent for this address)");
  }
  ctx.stash[KEY.verifiedEmail] = checked.address;
  const next = credentialState(ctx);
  return next ? { to: next } : finishWithoutCredential(ctx);
}

const passcode = passcodeConfirmation(onEmailVerified);

const registerLoginIdentifier: ActionDefinition = {
  description: "Enter an identifier to register.",
  inputs: identifierInputs,
  available: (ctx) => ctx.tenant.platform.account.allowSignup,
  async run(ctx, input) {
    const email = String(input.email);
    // Lower-cased as Hanko keeps usernames (the login compares them case-insensitively anyway).
    const username = typeof input.username === "string" ? input.username.toLowerCase() : undefined;
    if (username !== undefined) {
      if (!USERNAME_PATTERN.test(username)) {
        throw new FlowError("invalid_username_error", "The username contains invalid characters", {
          input: "username",
        });
      }
      if (await usernameTaken(ctx.tenant, username)) {
        throw new FlowError("username_already_exists", "The username is already taken", {
          input: "username",
        });
      }
    }
    if (await emailTaken(ctx.tenant, email)) {
      throw new FlowError("email_already_exists", "The email address is already taken", { input: "email" });
    }
    const verify = ctx.tenant.platform.emails.requireVerification;
    const next = credentialState(ctx);
    // Hanko's "no credential acquired": without a credential only a proved address can log in.
    if (!next && !(verify && ctx.tenant.platform.passcodes.enabled)) {
      throw new FlowError(
        "operation_not_permitted_error",
        "No login method is available for a new account on this device",
      );
    }
    ctx.stash[KEY.userId] = text(ctx, KEY.userId) ?? randomUUID();
    ctx.stash[KEY.email] = email;
    if (username !== undefined) ctx.stash[KEY.username] = username;
    else delete ctx.stash[KEY.username];
    delete ctx.stash[KEY.verifiedEmail];
    if (verify) {
      // The address has no user yet: the code goes to it alone.
      setPasscodeTarget(ctx, { address: email, userId: null, emailId: null, purpose: "email_verification" });
      return { to: "passcode_confirmation" };
    }
    return { to: next! };
  },
};

/** `back`, except to `passcode_confirmation` once the code is used (Hanko: it would mail another one). */
const back: ActionDefinition = {
  description: "Navigate one step back.",
  available: (ctx) => ctx.history.length > 0 && previousState(ctx) !== "passcode_confirmation",
  run: async () => ({ back: true }),
};

/**
 * `skip` creates the account without a credential, so it needs passcode login; from the chooser's
 * sub-states the chooser is where to skip (Hanko), and passkeys may be skipped only when optional.
 */
const skip: ActionDefinition = {
  description: "Skip",
  available(ctx) {
    const { passkeys, passcodes } = ctx.tenant.platform;
    if (!passcodes.enabled) return false;
    if (ctx.state === "credential_onboarding_chooser") return passkeys.optional;
    if (previousState(ctx) === "credential_onboarding_chooser") return false;
    return ctx.state === "password_creation" || passkeys.optional;
  },
  run: async (ctx) => finishWithoutCredential(ctx),
};

/** A failed attestation check as the elements know it: `passkey_invalid`, the state kept. */
function passkeyInvalid(error: unknown): unknown {
  if (!(error instanceof AppError) || error.status >= 500 || error instanceof FlowError) return error;
  return new FlowError("passkey_invalid", `The passkey is invalid (${error.details[0] ?? error.message})`, {
    cause: error,
  });
}

const webauthnVerifyAttestationResponse: ActionDefinition = {
  description: "Send the result which was generated by creating a webauthn credential.",
  inputs: [{ name: "public_key", type: "json", required: true }],
  available: passkeysUsable,
  async run(ctx, input) {
    const parsed = RegistrationResponse.safeParse(input.public_key);
    if (!parsed.success) {
      throw new FlowError("value_invalid_error", "Not a WebAuthn attestation response", {
        input: "public_key",
      });
    }
    const userId = text(ctx, KEY.userId);
    const challenge = text(ctx, KEY.challenge);
    if (!userId || !challenge) throw new FlowError("passkey_invalid", "No passkey creation was started");
    const response = parsed.data;
    let verified;
    try {
      verified = await verifySignUpPasskey(ctx.tenant, response, { userId, challenge }, ctx.audit);
    } catch (error) {
      throw passkeyInvalid(error);
    }
    delete ctx.stash[KEY.challenge];
    return finish(ctx, { passkey: { response, verified } }, ["passkey"], { login_method: "passkey" });
  },
};

const registerPassword: ActionDefinition = {
  description: "Submit a new password.",
  inputs: (ctx) => [
    {
      name: "new_password",
      type: "password",
      required: true,
      minLength: minPasswordLength(ctx.tenant),
      maxLength: MAX_PASSWORD_LENGTH,
    },
  ],
  available: (ctx) => ctx.tenant.platform.password.enabled,
  async run(ctx, input) {
    let passwordHash: string;
    try {
      passwordHash = await prepareSignUpPassword(ctx.tenant, String(input.new_password));
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      throw new FlowError("value_invalid_error", error.details[0] ?? error.message, {
        input: "new_password",
      });
    }
    return finish(ctx, { passwordHash }, ["pwd"], { login_method: "password" });
  },
};

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
    registration_init: { actions: ["register_login_identifier"] },
    passcode_confirmation: passcode.state,
    credential_onboarding_chooser: {
      actions: ["continue_to_passkey_registration", "continue_to_password_registration", "skip", "back"],
    },
    onboarding_create_passkey: { actions: ["webauthn_generate_creation_options", "skip", "back"] },
    onboarding_verify_passkey_attestation: {
      actions: ["webauthn_verify_attestation_response", "back"],
      // The options are made on the way in, so `creation_options` is this state's payload.
      async enter(ctx) {
        const userId = text(ctx, KEY.userId);
        const email = text(ctx, KEY.email);
        if (!userId || !email) throw new Error("registration: no identifier in the stash");
        const username = text(ctx, KEY.username);
        const options = await issueSignUpCreationOptions(
          ctx.tenant,
          { id: userId, userName: email, displayName: username ?? email },
          ctx.audit,
        );
        ctx.stash[KEY.challenge] = options.challenge;
        return { creation_options: { publicKey: options } };
      },
    },
    password_creation: { actions: ["register_password", "skip", "back"] },
    success: successState,
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("registration_init"),
    register_login_identifier: registerLoginIdentifier,
    ...passcode.actions,
    continue_to_passkey_registration: {
      description: "Create a passkey.",
      available: passkeysUsable,
      run: async () => ({ to: "onboarding_create_passkey" }),
    },
    continue_to_password_registration: {
      description: "Set a password.",
      available: (ctx) => ctx.tenant.platform.password.enabled,
      run: async () => ({ to: "password_creation" }),
    },
    webauthn_generate_creation_options: {
      description: "Get the options to create a passkey.",
      available: passkeysUsable,
      run: async () => ({ to: "onboarding_verify_passkey_attestation" }),
    },
    webauthn_verify_attestation_response: webauthnVerifyAttestationResponse,
    register_password: registerPassword,
    skip,
    back,
  },
});
