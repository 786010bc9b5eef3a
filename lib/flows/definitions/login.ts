import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { recordAuditEvent } from "@/lib/audit";
import {
  assertionChallengeOf,
  finalizeFlowPasskeyLogin,
  finalizeSecurityKeyLogin,
  isSecurityKey,
  issueFlowRequestOptions,
  parseAssertionResponse,
  userPasskeys,
  type FlowAssertionMode,
} from "@/lib/ceremonies/webauthn/flow-login";
import { isClaimOnly } from "@/lib/emails";
import { isFirstProof, removeUnprovenAccess } from "@/lib/emails/first-proof";
import { findEmail, lockUser, markEmailVerified, selectUserEmails } from "@/lib/emails/store";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { MAX_PASSWORD_LENGTH, minPasswordLength, setPassword } from "@/lib/passwords";
import {
  PasswordLocked,
  PasswordRejected,
  userHasPassword,
  verifyUserPassword,
} from "@/lib/passwords/verify";
import { NO_SECOND_FACTORS, hasSecondFactor, secondFactorsOf, type SecondFactors } from "@/lib/mfa";
import { notifySecondFactorFailures } from "@/lib/mfa/notify";
import { RateLimited, consumeRateLimit } from "@/lib/rate-limit";
import type { AuthMethod } from "@/lib/sessions";
import { findUser, type User } from "@/lib/users";
import { USERNAME_PATTERN, findUserByEmail, findUserByUsername } from "@/lib/users/lookup";
import {
  defineFlow,
  type ActionDefinition,
  type FlowContext,
  type InputSpec,
  type Transition,
} from "../definition";
import { FlowError } from "../errors";
import { MAX_OTP_FAILURES, checkOtpCode } from "../otp";
import type { MfaMethod } from "../payloads";
import { passcodeConfirmation, setPasscodeTarget } from "./passcode";
import {
  STASH,
  back,
  preflightState,
  registerClientCapabilities,
  signIn,
  successState,
  passkeysUsable,
  webauthnAvailable,
} from "./shared";

/** Stash keys of the login flow (cleared whenever the flow is back at `login_init`). */
const KEY = {
  /** The user the identifier named (or the passkey proved). */
  userId: "user_id",
  /** `{address, emailId}` a login code may be mailed to, or null. */
  passcodeEmail: "passcode_email",
  /** Which first factors the user may use (`Methods`). */
  methods: "login_methods",
  /** The first factor, once proven. */
  loginMethod: "login_method",
  /** The second factors the user must choose from (`SecondFactors`). */
  mfa: "mfa_methods",
  /**
   * Forgotten password: `requested`, then `verified` once the mailed code was right; the new password
   * is asked for only after the second factor, so mailbox access alone cannot choose it.
   */
  recovery: "password_recovery",
  /** The second factor proven before the new password of a recovery is set. */
  mfaDone: "mfa_done",
  /** The assertion the client is asked for: `{mode, challenge}`. */
  assertion: "webauthn_assertion",
} as const;

interface Methods {
  passkey: boolean;
  password: boolean;
  passcode: boolean;
}
interface PasscodeEmail {
  address: string;
  emailId: string;
}
interface Assertion {
  mode: FlowAssertionMode;
  challenge?: string;
}
type FirstFactor = "password" | "passcode";

const AMR: Record<FirstFactor, AuthMethod> = { password: "pwd", passcode: "otp" };
const NO_METHODS: Methods = { passkey: false, password: false, passcode: false };

const methodsOf = (ctx: FlowContext) => (ctx.stash[KEY.methods] as Methods | undefined) ?? NO_METHODS;
const mfaOf = (ctx: FlowContext) => (ctx.stash[KEY.mfa] as SecondFactors | undefined) ?? NO_SECOND_FACTORS;
const assertionOf = (ctx: FlowContext) => ctx.stash[KEY.assertion] as Assertion | undefined;

async function identifiedUser(ctx: FlowContext): Promise<User> {
  const id = ctx.stash[KEY.userId];
  const user = typeof id === "string" ? await findUser(ctx.tenant.id, id) : undefined;
  if (!user) throw new FlowError("not_found", "The user does not exist (any more)");
  return user;
}

/** `email` (type email), or `identifier` (an email or a username) when the tenant has usernames. */
function identifierInput(ctx: FlowContext): InputSpec {
  return ctx.tenant.platform.username.enabled
    ? { name: "identifier", type: "string", required: true, maxLength: 254 }
    : { name: "email", type: "email", required: true };
}

/**
 * The user an identifier names: an address (anything with `@`; usernames cannot hold one) or a
 * platform user's username. Unknown → the input's `unknown_email_error` / `unknown_username_error`
 * (Hanko without account-existence protection).
 */
async function identify(ctx: FlowContext, input: Record<string, unknown>) {
  const { name } = identifierInput(ctx);
  const value = String(input[name]);
  if (name === "email" || value.includes("@")) {
    const address = value.toLowerCase();
    const user = await findUserByEmail(ctx.tenant.id, address);
    if (!user) throw new FlowError("unknown_email_error", "The email address is unknown", { input: name });
    return { user, address };
  }
  const user = USERNAME_PATTERN.test(value) ? await findUserByUsername(ctx.tenant.id, value) : undefined;
  if (!user) throw new FlowError("unknown_username_error", "The username is unknown", { input: name });
  return { user, address: undefined };
}

/**
 * Where a login code may go: the address typed, or the primary one when a username was typed. An
 * unverified address is not used when it is only a claim (`isClaimOnly`) or its account has a
 * verified one (as for `POST /passcode/login/finalize`, only that account's session may verify it),
 * so whoever holds such an address cannot log in to the account with it.
 */
async function passcodeEmailOf(ctx: FlowContext, user: User, typed: string | undefined) {
  if (!ctx.tenant.platform.passcodes.enabled) return null;
  const emails = await selectUserEmails(ctx.tenant.id, user.id);
  const email = emails.find((row) => (typed === undefined ? row.isPrimary : row.address === typed));
  if (!email) return null;
  const unproven = !email.verified && (isClaimOnly(ctx.tenant, email) || emails.some((row) => row.verified));
  return unproven ? null : ({ address: email.address, emailId: email.id } satisfies PasscodeEmail);
}

async function loginMethodsOf(ctx: FlowContext, user: User, email: PasscodeEmail | null): Promise<Methods> {
  return {
    passkey: passkeysUsable(ctx) && (await userPasskeys(ctx.tenant, user.id)).length > 0,
    password: ctx.tenant.platform.password.enabled && (await userHasPassword(ctx.tenant, user.id)),
    passcode: email !== null,
  };
}

/** To `login_passkey`, whose entry issues the request options for `mode`. */
function toPasskey(ctx: FlowContext, mode: FlowAssertionMode): Transition {
  ctx.stash[KEY.assertion] = { mode } satisfies Assertion;
  return { to: "login_passkey" };
}

function toPasscode(ctx: FlowContext, recovery: "requested" | undefined): Transition {
  const email = ctx.stash[KEY.passcodeEmail] as PasscodeEmail | null;
  if (!email) throw new Error("passcode_confirmation without an address");
  setPasscodeTarget(ctx, {
    address: email.address,
    userId: ctx.stash[KEY.userId] as string,
    emailId: email.emailId,
    purpose: "login",
  });
  if (recovery) ctx.stash[KEY.recovery] = recovery;
  else delete ctx.stash[KEY.recovery];
  return { to: "passcode_confirmation" };
}

/**
 * A first factor is proven: on to the user's second factor if they have one (a security key first
 * when the client can use one, as it cannot be phished; the authenticator app otherwise), else done.
 */
async function firstFactorDone(ctx: FlowContext, user: User, method: FirstFactor): Promise<Transition> {
  ctx.stash[KEY.loginMethod] = method;
  const mfa = await secondFactorsOf(ctx.tenant, user.id);
  if (!hasSecondFactor(mfa)) return factorsDone(ctx, user, undefined);
  ctx.stash[KEY.mfa] = mfa;
  return {
    to: mfa.security_key && (webauthnAvailable(ctx) || !mfa.totp) ? "login_security_key" : "login_otp",
  };
}

/**
 * Every factor the user needs is proven: a session, or first the new password of a recovery (asked
 * for only now, so that mailbox access alone cannot choose it).
 */
function factorsDone(ctx: FlowContext, user: User, mfaMethod: MfaMethod | undefined): Promise<Transition> {
  if (ctx.stash[KEY.recovery] === "verified") {
    if (mfaMethod) ctx.stash[KEY.mfaDone] = mfaMethod;
    return Promise.resolve({ to: "login_password_recovery" });
  }
  const method = ctx.stash[KEY.loginMethod] as FirstFactor;
  return mfaMethod
    ? signIn(ctx, user, [AMR[method], mfaMethod], { login_method: method, mfa_method: mfaMethod })
    : signIn(ctx, user, [AMR[method]], { login_method: method });
}

/** Password and TOTP guesses share the tenant's `password` limit, per IP and per user. */
async function limitAttempts(ctx: FlowContext, user: User): Promise<void> {
  try {
    await consumeRateLimit(ctx.tenant, "password", {
      ip: ctx.audit.ip ?? null,
      body: { user_id: user.id },
      audit: ctx.audit,
    });
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    const retry = error.outcome.retryAfterSeconds;
    throw new FlowError("rate_limit_exceeded", "Too many attempts: try again later", {
      cause: error,
      ...(retry === undefined ? {} : { retryAfterSeconds: retry }),
    });
  }
}

/** A refused assertion as the elements know it: an MFA-only key used as a passkey, else `passkey_invalid`. */
async function assertionFailure(
  ctx: FlowContext,
  response: AuthenticationResponseJSON,
  error: unknown,
  firstFactor: boolean,
): Promise<unknown> {
  if (!(error instanceof AppError) || error.status >= 500 || error instanceof FlowError) return error;
  if (firstFactor && (await isSecurityKey(ctx.tenant, response.rawId))) {
    return new FlowError(
      "webauthn_credential_invalid_mfa_only",
      "This credential can be used as a second factor security key only",
      { cause: error },
    );
  }
  return new FlowError("passkey_invalid", `The passkey is invalid: ${error.details[0] ?? error.message}`, {
    cause: error,
  });
}

/** A passkey proves the user on its own: a session, no second factor (as Hanko). */
async function passkeyLogin(ctx: FlowContext, response: AuthenticationResponseJSON): Promise<Transition> {
  let user: User;
  try {
    user = await finalizeFlowPasskeyLogin(ctx.tenant, response, ctx.audit);
  } catch (error) {
    throw await assertionFailure(ctx, response, error, true);
  }
  ctx.stash[KEY.userId] = user.id;
  ctx.stash[KEY.loginMethod] = "passkey";
  return signIn(ctx, user, ["passkey"], { login_method: "passkey" });
}

async function securityKeyLogin(ctx: FlowContext, response: AuthenticationResponseJSON): Promise<Transition> {
  const user = await identifiedUser(ctx);
  try {
    await finalizeSecurityKeyLogin(ctx.tenant, user, response, ctx.audit);
  } catch (error) {
    throw await assertionFailure(ctx, response, error, false);
  }
  return factorsDone(ctx, user, "security_key");
}

/**
 * A code mailed to an unverified address proves it: the address is verified (Hanko's login hook). When
 * it is the account's first proven address, what was set up before it is removed (`removeUnprovenAccess`).
 */
async function verifyAddress(ctx: FlowContext, user: User, emailId: string | null): Promise<void> {
  if (!emailId) return;
  const verified = await transaction(async () => {
    // One transaction under the user's lock: the removal and the verification happen together or not.
    await lockUser(ctx.tenant.id, user.id);
    const email = await findEmail(ctx.tenant.id, emailId);
    if (!email || email.userId !== user.id || email.verified) return undefined;
    if (isFirstProof(await selectUserEmails(ctx.tenant.id, user.id), email)) {
      await removeUnprovenAccess(ctx.tenant, user.id, email.id, { ...ctx.audit, actor: user.id });
    }
    await markEmailVerified(ctx.tenant.id, email.id);
    return email;
  });
  if (!verified) return;
  await recordAuditEvent(ctx.tenant.id, {
    ...ctx.audit,
    actor: user.id,
    type: "email.verified",
    details: { userId: user.id, emailId: verified.id, flowId: ctx.flowId },
  });
}

const passcode = passcodeConfirmation(async (ctx, checked) => {
  const user = await identifiedUser(ctx);
  if (checked.userId !== user.id) throw new Error("the passcode was sent for another user");
  await verifyAddress(ctx, user, checked.emailId);
  if (ctx.stash[KEY.recovery] === "requested") ctx.stash[KEY.recovery] = "verified";
  return firstFactorDone(ctx, user, "passcode");
});

/** Login-specific stash is dropped; with conditional UI, discoverable request options are the payload. */
async function enterLoginInit(ctx: FlowContext) {
  for (const key of Object.values(KEY)) delete ctx.stash[key];
  if (!passkeysUsable(ctx) || ctx.stash[STASH.conditionalMediation] !== true) return undefined;
  const options = await issueFlowRequestOptions(ctx.tenant, "discoverable", null, ctx.audit);
  ctx.stash[KEY.assertion] = { mode: "discoverable", challenge: options.challenge } satisfies Assertion;
  return { request_options: { publicKey: options } };
}

/** New request options for the mode the previous action chose (the SDK calls `get()` with them). */
async function enterLoginPasskey(ctx: FlowContext) {
  const assertion = assertionOf(ctx);
  if (!assertion) throw new Error("login_passkey without an assertion mode");
  const userId = assertion.mode === "discoverable" ? null : (ctx.stash[KEY.userId] as string);
  const options = await issueFlowRequestOptions(ctx.tenant, assertion.mode, userId, ctx.audit);
  ctx.stash[KEY.assertion] = { mode: assertion.mode, challenge: options.challenge } satisfies Assertion;
  return { request_options: { publicKey: options } };
}

/** The assertion a state asks for: discoverable at `login_init`, the user's passkeys or security keys. */
const ASSERTION_MODE: Record<string, FlowAssertionMode> = {
  login_init: "discoverable",
  login_method_chooser: "user",
  login_security_key: "security_key",
};

const webauthnGenerateRequestOptions: ActionDefinition = {
  description: "Get webauthn request options in order to sign in with a webauthn credential.",
  available(ctx) {
    if (ctx.state === "login_init") return passkeysUsable(ctx);
    if (ctx.state === "login_method_chooser") return methodsOf(ctx).passkey;
    return mfaOf(ctx).security_key;
  },
  run: async (ctx) => toPasskey(ctx, ASSERTION_MODE[ctx.state] ?? "discoverable"),
};

const webauthnVerifyAssertionResponse: ActionDefinition = {
  description: "Send the result which was generated by using a webauthn credential.",
  inputs: [{ name: "assertion_response", type: "json", required: true }],
  available: (ctx) => ctx.state !== "login_init" || passkeysUsable(ctx),
  async run(ctx, input) {
    const response = parseAssertionResponse(input.assertion_response);
    if (!response) {
      throw new FlowError("value_invalid_error", "Not a WebAuthn assertion", { input: "assertion_response" });
    }
    // Only the challenge this flow handed out: a ceremony of another flow or API is not finished here.
    const assertion = assertionOf(ctx);
    if (!assertion?.challenge || assertionChallengeOf(response) !== assertion.challenge) {
      throw new FlowError(
        "passkey_invalid",
        "The passkey is invalid: the assertion answers another challenge",
      );
    }
    return assertion.mode === "security_key" ? securityKeyLogin(ctx, response) : passkeyLogin(ctx, response);
  },
};

const continueWithLoginIdentifier: ActionDefinition = {
  description: "Enter an identifier to login.",
  inputs: (ctx) => [identifierInput(ctx)],
  available: ({ tenant: { platform } }) =>
    platform.passkeys.enabled || platform.password.enabled || platform.passcodes.enabled,
  async run(ctx, input) {
    const { user, address } = await identify(ctx, input);
    const email = await passcodeEmailOf(ctx, user, address);
    const methods = await loginMethodsOf(ctx, user, email);
    ctx.stash[KEY.userId] = user.id;
    ctx.stash[KEY.passcodeEmail] = email;
    ctx.stash[KEY.methods] = methods;
    const usable = (Object.keys(methods) as (keyof Methods)[]).filter((method) => methods[method]);
    if (usable.length === 0) {
      throw new FlowError("operation_not_permitted_error", "No login method is available for this account");
    }
    if (usable.length > 1) return { to: "login_method_chooser" };
    if (usable[0] === "passkey") return toPasskey(ctx, "user");
    if (usable[0] === "password") return { to: "login_password" };
    return toPasscode(ctx, undefined);
  },
};

const passwordLogin: ActionDefinition = {
  description: "Login with a password.",
  inputs: [{ name: "password", type: "password", required: true, maxLength: MAX_PASSWORD_LENGTH }],
  available: (ctx) => ctx.tenant.platform.password.enabled && methodsOf(ctx).password,
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    await limitAttempts(ctx, user);
    try {
      await verifyUserPassword(ctx.tenant, user, String(input.password), ctx.audit);
    } catch (error) {
      // Hanko's answer to wrong credentials: `value_invalid_error` on the password input.
      if (error instanceof PasswordRejected) {
        throw new FlowError("value_invalid_error", "Wrong password", { input: "password", cause: error });
      }
      if (error instanceof PasswordLocked) {
        throw new FlowError(
          "operation_not_permitted_error",
          "The password is locked for a while after too many failed attempts: try again later, or use 'forgot password' to set a new one",
          { cause: error },
        );
      }
      throw error;
    }
    return firstFactorDone(ctx, user, "password");
  },
};

const passwordRecovery: ActionDefinition = {
  description: "Set a new password.",
  inputs: (ctx) => [
    {
      name: "new_password",
      type: "password",
      required: true,
      minLength: minPasswordLength(ctx.tenant),
      maxLength: MAX_PASSWORD_LENGTH,
    },
  ],
  available: (ctx) => ctx.stash[KEY.recovery] === "verified" && ctx.stash[KEY.loginMethod] === "passcode",
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    // The second factor, when the user has one, was proven before this state: check it again, so
    // that a factor added since cannot be skipped.
    const mfaDone = ctx.stash[KEY.mfaDone] as MfaMethod | undefined;
    if (!mfaDone && hasSecondFactor(await secondFactorsOf(ctx.tenant, user.id))) {
      throw new FlowError("operation_not_permitted_error", "The second factor was not proven");
    }
    try {
      await setPassword(ctx.tenant, user, { password: String(input.new_password) }, ctx.audit);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      throw new FlowError("value_invalid_error", error.details[0] ?? error.message, {
        input: "new_password",
        cause: error,
      });
    }
    delete ctx.stash[KEY.recovery];
    // The mailed code (and the second factor) were the proof of this login; the new password is set
    // for the next one.
    return factorsDone(ctx, user, mfaDone);
  },
};

const otpCodeValidate: ActionDefinition = {
  description: "Validates the provided code.",
  inputs: [{ name: "otp_code", type: "string", required: true, minLength: 6, maxLength: 6 }],
  available: (ctx) => mfaOf(ctx).totp,
  async run(ctx, input) {
    const user = await identifiedUser(ctx);
    await limitAttempts(ctx, user);
    const check = await checkOtpCode(ctx.tenant, user.id, String(input.otp_code));
    const { result } = check;
    await recordAuditEvent(ctx.tenant.id, {
      ...ctx.audit,
      actor: user.id,
      type: `otp.check.${result === "ok" ? "succeeded" : "failed"}`,
      details: { userId: user.id, result, flowId: ctx.flowId },
    });
    if (check.result === "locked") {
      // A run of wrong codes locked the app for a while: no code is checked, the login starts over.
      throw new FlowError(
        "rate_limit_exceeded",
        `Too many wrong codes: the authenticator app is locked for ${check.secondsLeft} seconds; sign in again later`,
        { restartAt: "login_init", retryAfterSeconds: check.secondsLeft },
      );
    }
    if (check.result === "invalid" && check.locked) {
      // Guessing costs the first factor again and a growing wait; the user is told (once per lock).
      await notifySecondFactorFailures(ctx.tenant, user.id, check.failures, { ...ctx.audit, actor: user.id });
      throw new FlowError(
        "operation_not_permitted_error",
        `Too many wrong codes (${MAX_OTP_FAILURES} in a row): sign in again later. The account's owner was notified by email.`,
        { restartAt: "login_init" },
      );
    }
    if (result === "used") {
      throw new FlowError("otp_code_already_used", "The code was used already: wait for the next one", {
        input: "otp_code",
      });
    }
    if (result !== "ok")
      throw new FlowError("otp_code_invalid", "The code is invalid", { input: "otp_code" });
    return factorsDone(ctx, user, "totp");
  },
};

/**
 * `login`: identifier first (email, or email or username), or a passkey straight away (button or
 * conditional UI). A known user continues with the one method available or chooses among passkey,
 * password and a mailed code; after a password or a code, the user's second factor (security key or
 * authenticator app) when the tenant has MFA on. Ends in `success` with a session.
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
    login_passkey: { actions: ["webauthn_verify_assertion_response", "back"], enter: enterLoginPasskey },
    login_password: { actions: ["password_login", "continue_to_passcode_confirmation_recovery", "back"] },
    login_password_recovery: { actions: ["password_recovery"] },
    passcode_confirmation: passcode.state,
    login_security_key: { actions: ["webauthn_generate_request_options", "continue_to_login_otp"] },
    login_otp: { actions: ["otp_code_validate", "continue_to_login_security_key"] },
    success: successState,
  },
  actions: {
    register_client_capabilities: registerClientCapabilities("login_init"),
    continue_with_login_identifier: continueWithLoginIdentifier,
    webauthn_generate_request_options: webauthnGenerateRequestOptions,
    webauthn_verify_assertion_response: webauthnVerifyAssertionResponse,
    continue_to_password_login: {
      description: "Continue to the password login.",
      available: (ctx) => ctx.tenant.platform.password.enabled && methodsOf(ctx).password,
      run: async () => ({ to: "login_password" }),
    },
    continue_to_passcode_confirmation: {
      description: "Send a login code to the email address.",
      available: (ctx) => methodsOf(ctx).passcode,
      run: async (ctx) => toPasscode(ctx, undefined),
    },
    continue_to_passcode_confirmation_recovery: {
      description: "Forgot the password: prove the email address with a code, then set a new password.",
      available: (ctx) => methodsOf(ctx).passcode,
      run: async (ctx) => toPasscode(ctx, "requested"),
    },
    password_login: passwordLogin,
    password_recovery: passwordRecovery,
    ...passcode.actions,
    otp_code_validate: otpCodeValidate,
    continue_to_login_otp: {
      description: "Use the authenticator app instead.",
      available: (ctx) => mfaOf(ctx).totp,
      run: async () => ({ to: "login_otp" }),
    },
    continue_to_login_security_key: {
      description: "Use a security key instead.",
      available: (ctx) => mfaOf(ctx).security_key,
      run: async () => ({ to: "login_security_key" }),
    },
    back,
  },
});
