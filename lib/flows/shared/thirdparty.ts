import type { FlowContext, InputSpec } from "@/lib/flows/definition";
import type { InputErrorRules } from "@/lib/flows/errors";
import type { BrowserProof } from "@/lib/one-time-tokens";
import { listEnabledProviders, startThirdPartySignIn, type EnabledProvider } from "@/lib/thirdparty";

// What the login, registration and profile flows share for third-party (OAuth 2.0 / OIDC) and SAML sign-in.

/** The stash key of the URL the `thirdparty` state sends the browser to. */
export const REDIRECT_URL = "thirdparty_redirect_url";

/** The tenant's enabled providers, loaded once per step (availability, inputs and the action agree). */
export const enabledProviders = (ctx: FlowContext): Promise<EnabledProvider[]> =>
  ctx.memo("thirdparty_providers", () => listEnabledProviders(ctx.tenant.id));

/** Where the login comes back to: any URL; the third-party and SAML modules check it against the tenant. */
export const REDIRECT_TO_INPUT: InputSpec = {
  name: "redirect_to",
  type: "string",
  required: true,
  hidden: true,
  maxLength: 2048,
};

/**
 * Hanko's elements send a verifier of their own (kept in sessionStorage) with `thirdparty_oauth` and again
 * with `exchange_token`: the sign-in's one-time token is exchanged with the same verifier (or the start's
 * binding cookie), so a token from someone else's sign-in injected into this page (`?hanko_token=`) is
 * refused (login CSRF).
 */
export const CODE_VERIFIER_INPUT: InputSpec = {
  name: "code_verifier",
  type: "string",
  hidden: true,
  maxLength: 128,
};

/**
 * What `exchange_token` shows to prove this browser started the sign-in: the `code_verifier` the elements
 * send (after `thirdparty_oauth`), and the binding cookies (every start sets one; the only proof after the
 * SSO routing of `continue_with_login_identifier`, where the elements make no verifier).
 */
export function browserProof(ctx: FlowContext, input: Record<string, unknown>): BrowserProof {
  const verifier = input.code_verifier;
  return {
    ...(typeof verifier === "string" && verifier ? { codeVerifier: verifier } : {}),
    cookies: ctx.bindingCookies,
  };
}

/** Hanko's `provider` input: one allowed value per provider, its display name as the name. */
export function providerInput(providers: readonly EnabledProvider[]): InputSpec {
  return {
    name: "provider",
    type: "string",
    required: true,
    hidden: true,
    allowedValues: providers.map((provider) => ({ value: provider.slug, name: provider.displayName })),
  };
}

/** The domain refusals of a start that belong to an input (Hanko answers form_data_invalid_error). */
export const START_INPUT_ERRORS: InputErrorRules = {
  REDIRECT_NOT_ALLOWED: {
    input: "redirect_to",
    code: "value_invalid_error",
    message: "The redirect URL is not allowed",
  },
  THIRD_PARTY_PROVIDER_NOT_FOUND: {
    input: "provider",
    code: "value_invalid_error",
    message: "The provider is unknown or disabled",
  },
};

/**
 * Starts an authorization at the provider (`linkUserId`: connect it to the signed-in user): the state
 * cookie goes on the answer, the provider's URL into the stash for the `thirdparty` state.
 */
export async function startAtProvider(
  ctx: FlowContext,
  input: Record<string, unknown>,
  linkUserId?: string,
): Promise<{ to: "thirdparty" }> {
  const start = await startThirdPartySignIn(
    ctx.tenant,
    {
      provider: String(input.provider),
      redirectTo: String(input.redirect_to),
      ...(linkUserId ? { linkUserId } : {}),
      ...(typeof input.code_verifier === "string" && input.code_verifier
        ? { codeVerifier: input.code_verifier }
        : {}),
    },
    ctx.audit,
  );
  ctx.cookies.push(start.cookie);
  ctx.stash[REDIRECT_URL] = start.redirectUrl;
  return { to: "thirdparty" };
}

/**
 * `thirdparty`: the browser goes to `redirect_url` (the provider, or Sesame's SAML start). The elements
 * keep this state and, back with `?hanko_token=`, run its `exchange_token`; with `?error=`, its `back`.
 */
export const thirdpartyState = {
  actions: ["exchange_token", "back"] as const,
  async enter(ctx: FlowContext) {
    const url = ctx.stash[REDIRECT_URL];
    delete ctx.stash[REDIRECT_URL];
    if (typeof url !== "string") throw new Error("flow thirdparty: entered without a redirect URL");
    return { redirect_url: url };
  },
};
