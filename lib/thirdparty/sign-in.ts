import * as oidc from "openid-client";
import { failureDetails, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { constantTimeEqual, randomToken, seal, sha256Hex, unseal } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { linkIdentity, signInWithIdentity, type AssertedIdentity } from "@/lib/accounts";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import type { Tenant } from "@/lib/tenants";
import { keepJwks, providerClient, type ProviderClient } from "./client";
import { userInfoOf } from "./user-info";
import { errorRedirect, explainRefusal, isAllowedRedirect, withQuery, type RefusalReasons } from "./redirect";
import { BINDING_COOKIE_PATH, thirdPartyCookieName } from "./browser-cookie";
import { consumeState, insertState, selectProvider, sweepExpiredStates } from "./store";

/** A started authorization lives this long (the user signs in at the provider meanwhile). */
export const STATE_TTL_SECONDS = 600;
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
 * the sign-in's one-time token is exchanged with it, or with the binding cookie (plain-URL starts).
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
        name: thirdPartyCookieName(),
        value: browser,
        maxAgeSeconds: STATE_TTL_SECONDS,
        path: BINDING_COOKIE_PATH,
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

/** The audit details of a failure: its reason and named code. */
const failed = (error: unknown) => failureDetails(error);

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
    const outcome = await (
      row.linkUserId
        ? linkIdentity(tenant, row.linkUserId, asserted, context)
        : signInWithIdentity(tenant, asserted, { allowLinking: client.row.allowLinking }, context)
    ).catch((error: unknown) => {
      throw explainRefusal(error, accountRefusals(client.row.slug, asserted));
    });
    // Bound to this browser: its binding cookie (checked above) and the elements' verifier, if any.
    const token = await mintOneTimeToken(tenant, outcome.user.id, {
      amr: [`ext:${client.row.slug}`],
      binding: { browserHash: row.browserHash, codeChallenge: row.codeChallenge },
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
    keepJwks(client.config);
    if (error instanceof AppError) throw error;
    // The first detail is all the browser may see (errorQuery); the second names the check, for the audit.
    const precise = auditReason(error);
    throw new AppError("THIRD_PARTY_PROVIDER_ERROR", undefined, {
      details: precise ? [describe(error), precise] : [describe(error)],
      cause: error,
    });
  }
  keepJwks(client.config);
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

/** What the account step's refusals mean here: `[for the browser, for the audit log]`. */
function accountRefusals(provider: string, asserted: AssertedIdentity): RefusalReasons {
  return {
    THIRD_PARTY_EMAIL_UNVERIFIED: asserted.emailVerified
      ? [
          "this email address belongs to another account",
          `the address ${provider} verified is held by another account and could not be taken`,
        ]
      : [
          "the provider has not verified this email address",
          `${provider} does not vouch for the address (email_verified is not true): it links to no ` +
            "existing account, and creates none while the tenant requires verified addresses",
        ],
    THIRD_PARTY_EMAIL_MISSING: [
      "the provider shared no email address",
      `${provider} answered no email address (ID token, user info, emails endpoint)`,
    ],
    THIRD_PARTY_LINKING_DISABLED: [
      "an account with this email address exists",
      `the address belongs to an existing account and ${provider}'s allow_linking is off`,
    ],
  };
}

/** Claims whose values may go to the audit log; others (nonce, hashes) are named without their value. */
const SHOWN_CLAIMS = new Set(["iss", "aud", "azp", "exp", "iat", "nbf", "auth_time", "typ", "alg"]);

const short = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return (text ?? String(value)).slice(0, 120);
};

/**
 * The check a library error names, for the audit log only: openid-client wraps oauth4webapi's error
 * (`unexpected JWT claim value encountered`), whose own message names the claim and whose `cause` holds
 * `claim`, `expected`, the token's `claims`, the key `header`… Only the failed claim's name (and, for
 * public claims, the expected and actual values), the attribute, the key id and algorithm are kept: never
 * the whole token, its nonce or the response body.
 */
export function auditReason(error: unknown): string | undefined {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(`${current.message.slice(0, 200)}${typeof code === "string" ? ` (${code})` : ""}`);
      current = current.cause;
      continue;
    }
    if (typeof current === "object") {
      const cause = current as Record<string, unknown>;
      const claim = typeof cause.claim === "string" ? cause.claim : undefined;
      const facts: string[] = [];
      if (claim) facts.push(`claim ${claim}`);
      if (claim && SHOWN_CLAIMS.has(claim)) {
        if (cause.expected !== undefined) facts.push(`expected ${short(cause.expected)}`);
        const claims = cause.claims as Record<string, unknown> | undefined;
        if (claims && claims[claim] !== undefined) facts.push(`actual ${short(claims[claim])}`);
      }
      if (typeof cause.attribute === "string") facts.push(`attribute ${cause.attribute}`);
      const header = cause.header as { kid?: unknown; alg?: unknown } | undefined;
      if (header?.alg !== undefined) facts.push(`alg ${short(header.alg)}`);
      if (header?.kid !== undefined) facts.push(`kid ${short(header.kid)}`);
      if (facts.length) parts.push(facts.join(", "));
    }
    break;
  }
  const reason = parts.slice(1).join(": ");
  return reason || undefined;
}
