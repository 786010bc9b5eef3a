import type { FlowAssertionMode } from "@/lib/ceremonies/webauthn/flow-login";
import { NO_SECOND_FACTORS, type SecondFactors } from "@/lib/mfa";
import type { FlowContext } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { findUser, type User } from "@/lib/users";

/** Stash keys of the login flow (cleared whenever the flow is back at `login_init`). */
export const KEY = {
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

export interface Methods {
  passkey: boolean;
  password: boolean;
  passcode: boolean;
}
export interface PasscodeEmail {
  address: string;
  emailId: string;
}
export interface Assertion {
  mode: FlowAssertionMode;
  challenge?: string;
  /** A discoverable challenge handed out before and not used yet, which new options may reuse. */
  reusable?: string;
}

const NO_METHODS: Methods = { passkey: false, password: false, passcode: false };

export const methodsOf = (ctx: FlowContext) => (ctx.stash[KEY.methods] as Methods | undefined) ?? NO_METHODS;
export const mfaOf = (ctx: FlowContext) =>
  (ctx.stash[KEY.mfa] as SecondFactors | undefined) ?? NO_SECOND_FACTORS;
export const assertionOf = (ctx: FlowContext) => ctx.stash[KEY.assertion] as Assertion | undefined;

export async function identifiedUser(ctx: FlowContext): Promise<User> {
  const id = ctx.stash[KEY.userId];
  const user = typeof id === "string" ? await findUser(ctx.tenant.id, id) : undefined;
  if (!user) throw new FlowError("not_found", "The user does not exist (any more)");
  return user;
}
