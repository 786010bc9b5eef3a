import type { FlowContext, Transition } from "@/lib/flows/definition";
import type { LastLogin } from "@/lib/flows/payloads";
import { signIn } from "@/lib/flows/shared/sign-in";
import type { AuthMethod } from "@/lib/sessions";
import { completeFlowSignUp, type FlowSignUp } from "@/lib/accounts";
import { KEY, emailVerified, text } from "./stash";

/**
 * Creates the user with everything the flow collected and starts its session. A concurrent sign-up
 * that took the address or username first makes this one fail with Hanko's code for it; the flow
 * keeps its state and nothing of this sign-up is written.
 */
export async function finish(
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
  const user = await completeFlowSignUp(ctx.tenant, signUp, ctx.audit);
  return signIn(ctx, user, amr, lastLogin);
}

/** No credential: the account logs in with passcodes to its address (`otp` when this flow proved it). */
export const finishWithoutCredential = (ctx: FlowContext) =>
  emailVerified(ctx)
    ? finish(ctx, {}, ["otp"], { login_method: "passcode" })
    : finish(ctx, {}, [], undefined);
