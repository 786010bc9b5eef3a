import * as oidc from "openid-client";
import { failureDetails, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { constantTimeEqual, randomToken, seal, sha256Hex, unseal } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { linkIdentity, signInWithIdentity, type AssertedIdentity } from "@/lib/accounts";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import type { Tenant } from "@/lib/tenants";
import { providerClient, type ProviderClient } from "./client";
import { userInfoOf } from "./user-info";
import { errorRedirect, isAllowedRedirect, withQuery } from "./redirect";
import { consumeState, insertState, selectProvider, sweepExpiredStates } from "./store";

/** A started authorization lives this long (the user signs in at the provider meanwhile). */
export const STATE_TTL_SECONDS = 600;
/** The cookie that binds a started authorization to the browser that started it. */
export const BROWSER_COOKIE = "sesame_thirdparty";
const STATE_PURPOSE = "third-party-state";
const TOKENS_PURPOSE = "third-party-tokens";
const BROWSER_VALUE = /^[A-Za-z0-9_-]{43}$/;
const SWEEP_EVERY = 64;

/** Where to send the browser, and the cookie that binds the `state` to it (HttpOnly, SameSite=Lax). */
export interface ThirdPartyStart {
  redirectUrl: string;
  cookie: {
    name: string;
    value: string;
    maxAgeSeconds: number;
    path: string;
    /**
     * `lax` unless the provider answers with a cross-site POST (Apple's form_post), which a Lax cookie
     * does not follow: then `none` (and Secure, so only over https).
     */
    sameSite?: "lax" | "none";
  };
}

export const cookiePath = (tenantId: string) => `/t/${tenantId}/thirdparty`;

async function enabledProvider(tenantId: string, slug: string) {
  const row = await selectProvider(tenantId, slug);
  if (!row || !row.enabled) throw new AppError("THIRD_PARTY_PROVIDER_NOT_FOUND");
  return row;
}

/**
 * Starts an authorization at the provider: stores the single-use state (PKCE verifier, nonce, redirect_to,
 * and `linkUserId` when a signed-in user connects the provider), and answers the provider's authorization
 * URL. REDIRECT_NOT_ALLOWED when `redirectTo` is not allowed; THIRD_PARTY_PROVIDER_NOT_FOUND.
 * `browser`: the binding cookie the browser already has (reused, so two tabs can sign in at once).
 * `codeVerifier`: the elements' own verifier (Hanko's `code_verifier`, kept in the page's sessionStorage);
 * the sign-in's one-time token is then exchanged only with it.
 */
export async function startThirdPartySignIn(
  tenant: Tenant,
  input: {
    provider: string;
    redirectTo: string;
    linkUserId?: string;
    browser?: string;
    origin?: "flow" | "api";
    codeVerifier?: string;
  },
  context: AuditContext,
): Promise<ThirdPartyStart> {
  try {
    const row = await enabledProvider(tenant.id, input.provider);
    if (!isAllowedRedirect(tenant, row.allowedRedirectUrls, input.redirectTo)) {
      throw new AppError("REDIRECT_NOT_ALLOWED", undefined, {
        details: ["redirect_to: is not one of the tenant's allowed origins or the provider's redirect URLs"],
      });
    }
    const client = await providerClient(row);
    const state = oidc.randomState();
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = client.definition.protocol === "oidc" ? oidc.randomNonce() : undefined;
    const browser = input.browser && BROWSER_VALUE.test(input.browser) ? input.browser : randomToken(32);
    const stateHash = sha256Hex(state);
    await insertState(tenant.id, {
      providerSlug: row.slug,
      stateHash,
      browserHash: sha256Hex(browser),
      secretsSealed: seal(JSON.stringify({ verifier, nonce }), STATE_PURPOSE, `${tenant.id}/${stateHash}`),
      redirectTo: input.redirectTo,
      linkUserId: input.linkUserId ?? null,
      codeChallenge: input.codeVerifier ? sha256Hex(input.codeVerifier) : null,
      origin: input.origin ?? "flow",
      ttlSeconds: STATE_TTL_SECONDS,
    });
    if (Math.random() * SWEEP_EVERY < 1) await sweepExpiredStates();
    const url = oidc.buildAuthorizationUrl(client.config, {
      redirect_uri: client.redirectUri,
      scope: client.scopes.join(" "),
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ...(nonce ? { nonce } : {}),
      ...(client.definition.formPost ? { response_mode: "form_post" } : {}),
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "thirdparty.signin.started",
      details: { provider: row.slug, ...(input.linkUserId ? { link_user_id: input.linkUserId } : {}) },
    });
    return {
      redirectUrl: url.toString(),
      cookie: {
        name: BROWSER_COOKIE,
        value: browser,
        maxAgeSeconds: STATE_TTL_SECONDS,
        path: cookiePath(tenant.id),
        sameSite: client.definition.formPost ? "none" : "lax",
      },
    };
  } catch (error) {
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "thirdparty.signin.failed",
      details: { provider: input.provider, step: "start", ...failed(error) },
    });
    throw error;
  }
}

/** The audit details of a failure: its platform status and reason, and the domain code. */
const failed = (error: unknown) => ({
  ...failureDetails(error),
  code: error instanceof AppError ? error.code : "INTERNAL",
});

/** What the callback answers: always a redirect once the state is known. */
export interface ThirdPartyFinish {
  location: string;
  /** The sign-in succeeded (else `location` carries Hanko's `error` and `error_description`). */
  ok: boolean;
}

/**
 * The provider's answer (`GET` query or Apple's `POST` form): takes the state (single use; unknown, used or
 * another tenant's: THIRD_PARTY_STATE_INVALID, thrown, since there is nowhere safe to redirect), then checks
 * that it has not expired and that this browser started it (cookie), exchanges the code (PKCE, ID token:
 * issuer, audience, signature, expiry, nonce), reads who the user is, signs in, links or signs up, and
 * answers `redirect_to` with a one-time token (`hanko_token`, amr `ext:<provider>`), or with Hanko's error
 * query. Every outcome is audited.
 */
export async function finishThirdPartySignIn(
  tenant: Tenant,
  input: { params: URLSearchParams; browser?: string },
  context: AuditContext,
): Promise<ThirdPartyFinish> {
  const state = input.params.get("state");
  const row = state ? await consumeState(tenant.id, sha256Hex(state)) : undefined;
  if (!state || !row) {
    const error = new AppError("THIRD_PARTY_STATE_INVALID", undefined, {
      details: [state ? "state: unknown or already used" : "state: is required"],
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "thirdparty.signin.failed",
      details: { step: "callback", ...failed(error) },
    });
    throw error;
  }
  try {
    if (row.expired) {
      throw new AppError("THIRD_PARTY_STATE_INVALID", undefined, { details: ["state: has expired"] });
    }
    const browser = input.browser ?? "";
    if (!BROWSER_VALUE.test(browser) || !constantTimeEqual(sha256Hex(browser), row.browserHash)) {
      throw new AppError("THIRD_PARTY_STATE_INVALID", undefined, {
        details: ["state: was started in another browser"],
      });
    }
    const providerError = input.params.get("error");
    if (providerError) {
      const description = input.params.get("error_description")?.slice(0, 200);
      throw new AppError(
        providerError === "access_denied" ? "THIRD_PARTY_ACCESS_DENIED" : "THIRD_PARTY_PROVIDER_ERROR",
        undefined,
        { details: [`${providerError.slice(0, 100)}${description ? `: ${description}` : ""}`] },
      );
    }
    const secrets = JSON.parse(unseal(row.secretsSealed, STATE_PURPOSE, `${tenant.id}/${row.stateHash}`)) as {
      verifier: string;
      nonce?: string;
    };
    const client = await providerClient(await enabledProvider(tenant.id, row.providerSlug));
    const asserted = await exchange(client, input.params, state, secrets);
    const outcome = row.linkUserId
      ? await linkIdentity(tenant, row.linkUserId, asserted, context)
      : await signInWithIdentity(tenant, asserted, { allowLinking: client.row.allowLinking }, context);
    const token = await mintOneTimeToken(tenant, outcome.user.id, {
      amr: [`ext:${client.row.slug}`],
      codeChallenge: row.codeChallenge,
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: outcome.user.id,
      type: "thirdparty.signin.succeeded",
      details: { provider: client.row.slug, outcome: outcome.outcome, identity_id: outcome.identity.id },
    });
    return { location: withQuery(row.redirectTo, { hanko_token: token }), ok: true };
  } catch (error) {
    await recordAuditEvent(tenant.id, {
      ...context,
      type: "thirdparty.signin.failed",
      details: { provider: row.providerSlug, step: "callback", ...failed(error) },
    });
    return { location: errorRedirect(row.redirectTo, error), ok: false };
  }
}

/** The code exchange and the account's identity, as the provider vouches for it. */
async function exchange(
  client: ProviderClient,
  params: URLSearchParams,
  state: string,
  secrets: { verifier: string; nonce?: string },
): Promise<AssertedIdentity> {
  const currentUrl = new URL(client.redirectUri);
  for (const [name, value] of params) currentUrl.searchParams.append(name, value);
  const isOidc = client.definition.protocol === "oidc";
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(client.config, currentUrl, {
      pkceCodeVerifier: secrets.verifier,
      expectedState: state,
      ...(isOidc ? { expectedNonce: secrets.nonce ?? "", idTokenExpected: true } : {}),
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("THIRD_PARTY_PROVIDER_ERROR", undefined, {
      details: [describe(error)],
      cause: error,
    });
  }
  const info = await userInfoOf(client, tokens);
  // Apple sends the user's name only once, beside the code on the first sign-in, never in the ID token.
  const appleName = client.kind === "apple" ? nameFromAppleUser(params.get("user")) : undefined;
  if (appleName && info.claims.name === undefined) info.claims.name = appleName;
  const tokensSealed = client.row.storeTokens
    ? seal(
        JSON.stringify({
          access_token: tokens.access_token,
          refresh_token: tokens.refresh_token,
          id_token: tokens.id_token,
          scope: tokens.scope,
          expires_at: tokens.expires_in ? Date.now() + tokens.expires_in * 1000 : undefined,
        }),
        TOKENS_PURPOSE,
        `${client.row.tenantId}/${client.row.slug}/${info.subject}`,
      )
    : null;
  return {
    kind: "oauth",
    providerId: client.row.slug,
    subject: info.subject,
    email: info.email,
    emailVerified: info.emailVerified,
    claims: info.claims,
    tokensSealed,
  };
}

/** `{"name": {"firstName": …, "lastName": …}}` (Apple's `user` form field), as one name. */
function nameFromAppleUser(value: string | null): string | undefined {
  if (!value || value.length > 2000) return undefined;
  try {
    const name = (JSON.parse(value) as { name?: { firstName?: unknown; lastName?: unknown } }).name;
    const parts = [name?.firstName, name?.lastName].filter(
      (part): part is string => typeof part === "string" && part.trim() !== "",
    );
    return parts.length > 0 ? parts.join(" ").slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** A short, safe description of a library error (its message names the failed check). */
function describe(error: unknown): string {
  if (error instanceof oidc.AuthorizationResponseError)
    return `${error.error}: ${error.error_description ?? ""}`;
  if (error instanceof oidc.ResponseBodyError) return `${error.error}: ${error.error_description ?? ""}`;
  if (error instanceof Error) return error.message.slice(0, 200);
  return "the provider's answer failed a check";
}
