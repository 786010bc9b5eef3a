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

/**
 * A security key refused as a passkey: the elements explain that it is a second factor only. Any other
 * refusal is FLOW_ERRORS' `passkey_invalid`.
 */
async function mfaOnlyKey(ctx: FlowContext, response: AuthenticationResponseJSON, error: unknown) {
  if (!(error instanceof AppError) || error.code !== "CEREMONY_VERIFICATION_FAILED") return error;
  if (!(await isSecurityKey(ctx.tenant, response.rawId))) return error;
  return new FlowError(
    "webauthn_credential_invalid_mfa_only",
    "This credential can be used as a second factor security key only",
    { cause: error },
  );
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
    throw await mfaOnlyKey(ctx, response, error);
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
  await finalizeSecurityKeyLogin(ctx.tenant, user, response, ctx.audit);
  return factorsDone(ctx, user, "security_key");
}
