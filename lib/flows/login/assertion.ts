import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import {
  finalizeFlowPasskeyLogin,
  finalizeSecurityKeyLogin,
  isSecurityKey,
} from "@/lib/ceremonies/webauthn/flow-login";
import { AppError } from "@/lib/errors";
import type { FlowContext, Transition } from "@/lib/flows/definition";
import { FlowError } from "@/lib/flows/errors";
import { signIn } from "@/lib/flows/shared/sign-in";
import type { User } from "@/lib/users";
import { factorsDone } from "./factors";
import { KEY, identifiedUser } from "./stash";

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
export async function passkeyLogin(
  ctx: FlowContext,
  response: AuthenticationResponseJSON,
): Promise<Transition> {
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

/** A security key proves the identified user's second factor. */
export async function securityKeyLogin(
  ctx: FlowContext,
  response: AuthenticationResponseJSON,
): Promise<Transition> {
  const user = await identifiedUser(ctx);
  try {
    await finalizeSecurityKeyLogin(ctx.tenant, user, response, ctx.audit);
  } catch (error) {
    throw await assertionFailure(ctx, response, error, false);
  }
  return factorsDone(ctx, user, "security_key");
}
