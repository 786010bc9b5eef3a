import { issueSession, type AuthMethod } from "@/lib/sessions";
import type { User } from "@/lib/users";
import type { FlowContext } from "@/lib/flows/definition";
import type { LastLogin } from "@/lib/flows/payloads";
import { STASH } from "./stash";

/**
 * Starts the user's session (cookie or `X-Auth-Token` on the answer) and leads to `success`, whose
 * payload carries the user and the session's claims.
 */
export async function signIn(
  ctx: FlowContext,
  user: User,
  amr: AuthMethod[],
  lastLogin: LastLogin | undefined,
): Promise<{ to: "success" }> {
  ctx.issued = await issueSession(ctx.tenant, user, amr, { ...ctx.audit, actor: user.id });
  ctx.issuedTo = user;
  ctx.stash[STASH.successUser] = user.id;
  if (lastLogin) ctx.stash[STASH.lastLogin] = lastLogin;
  return { to: "success" };
}
