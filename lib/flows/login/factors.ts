import type { FlowAssertionMode } from "@/lib/ceremonies/webauthn/flow-login";
import type { FlowContext, Transition } from "@/lib/flows/definition";
import type { MfaMethod } from "@/lib/flows/payloads";
import { setPasscodeTarget } from "@/lib/flows/shared/passcode";
import { signIn } from "@/lib/flows/shared/sign-in";
import { webauthnAvailable } from "@/lib/flows/shared/webauthn";
import { hasSecondFactor, secondFactorsOf } from "@/lib/mfa";
import type { AuthMethod } from "@/lib/sessions";
import type { User } from "@/lib/users";
import { KEY, type Assertion, type PasscodeEmail } from "./stash";

// The steps between the login's states: on to a factor, and what happens once one is proven.

type FirstFactor = "password" | "passcode";

const AMR: Record<FirstFactor, AuthMethod> = { password: "pwd", passcode: "otp" };

/** To `login_passkey`, whose entry issues the request options for `mode`. */
export function toPasskey(ctx: FlowContext, mode: FlowAssertionMode): Transition {
  // Conditional UI's options at login_init: the passkey button may hand out that challenge again.
  const before = ctx.stash[KEY.assertion] as Assertion | undefined;
  const reusable = mode === "discoverable" && before?.mode === "discoverable" ? before.challenge : undefined;
  ctx.stash[KEY.assertion] = { mode, ...(reusable ? { reusable } : {}) } satisfies Assertion;
  return { to: "login_passkey" };
}

export function toPasscode(ctx: FlowContext, recovery: "requested" | undefined): Transition {
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
export async function firstFactorDone(
  ctx: FlowContext,
  user: User,
  method: FirstFactor,
): Promise<Transition> {
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
export function factorsDone(
  ctx: FlowContext,
  user: User,
  mfaMethod: MfaMethod | undefined,
): Promise<Transition> {
  if (ctx.stash[KEY.recovery] === "verified") {
    if (mfaMethod) ctx.stash[KEY.mfaDone] = mfaMethod;
    return Promise.resolve({ to: "login_password_recovery" });
  }
  const method = ctx.stash[KEY.loginMethod] as FirstFactor;
  return mfaMethod
    ? signIn(ctx, user, [AMR[method], mfaMethod], { login_method: method, mfa_method: mfaMethod })
    : signIn(ctx, user, [AMR[method]], { login_method: method });
}
