import { issueSession, type AuthMethod } from "@/lib/sessions";
import { findUser, type User } from "@/lib/users";
import type { ActionDefinition, FlowContext, InputSpec } from "../definition";
import { flowErrors } from "../errors";
import { successPayload, type LastLogin } from "../payloads";

/** Stash keys every flow shares. */
export const STASH = {
  /** What the client said it can do (`register_client_capabilities`). */
  webauthnAvailable: "webauthn_available",
  conditionalMediation: "webauthn_conditional_mediation_available",
  platformAuthenticator: "webauthn_platform_authenticator_available",
  /** The user a `success` belongs to and how they logged in. */
  successUser: "success_user_id",
  lastLogin: "last_login",
} as const;

export const CAPABILITY_INPUTS: InputSpec[] = [
  { name: "webauthn_available", type: "boolean", required: true, hidden: true },
  { name: "webauthn_conditional_mediation_available", type: "boolean", hidden: true },
  { name: "webauthn_platform_authenticator_available", type: "boolean", hidden: true },
];

/** `preflight`: the client reports its WebAuthn capabilities, then lands on `next`. */
export function registerClientCapabilities(next: string): ActionDefinition {
  return {
    description:
      "Tell the server what the browser can do (WebAuthn, conditional UI, platform authenticator).",
    inputs: CAPABILITY_INPUTS,
    async run(ctx, input) {
      ctx.stash[STASH.webauthnAvailable] = input.webauthn_available === true;
      ctx.stash[STASH.conditionalMediation] = input.webauthn_conditional_mediation_available === true;
      ctx.stash[STASH.platformAuthenticator] = input.webauthn_platform_authenticator_available === true;
      return { to: next };
    },
  };
}

export const preflightState = { actions: ["register_client_capabilities"], transient: true } as const;

/** Whether the client said it can run WebAuthn ceremonies (true until it says otherwise). */
export const webauthnAvailable = (ctx: FlowContext): boolean => ctx.stash[STASH.webauthnAvailable] !== false;

/** Passkeys are on for the tenant and the client said it can run WebAuthn. */
export const passkeysUsable = (ctx: FlowContext): boolean =>
  ctx.tenant.platform.passkeys.enabled && webauthnAvailable(ctx);

export const back: ActionDefinition = {
  description: "Go back to the previous state.",
  available: (ctx) => ctx.history.length > 0,
  run: async () => ({ back: true }),
};

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
  ctx.stash[STASH.successUser] = user.id;
  if (lastLogin) ctx.stash[STASH.lastLogin] = lastLogin;
  return { to: "success" };
}

export const successState = {
  actions: [] as readonly never[],
  async enter(ctx: FlowContext) {
    const userId = ctx.stash[STASH.successUser];
    const user = typeof userId === "string" ? await findUser(ctx.tenant.id, userId) : undefined;
    if (!user || !ctx.issued) throw flowErrors.technical(new Error("success without a session"));
    return successPayload(ctx.tenant, user, ctx.issued, ctx.stash[STASH.lastLogin] as LastLogin | undefined);
  },
};
