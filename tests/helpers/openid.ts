import * as discoveryRoute from "@/app/(openid)/t/[tenantId]/.well-known/openid-configuration/route";
import * as interactionRoute from "@/app/(openid)/t/[tenantId]/oauth/interaction/[uid]/route";
import * as oauthRoute from "@/app/(openid)/t/[tenantId]/oauth/[...path]/route";
import * as client from "openid-client";
import { createOAuthClient, type OAuthClientInput } from "@/lib/openid";
import type { Tenant } from "@/lib/tenants";
import { platformUserWithEmail } from "./admin-user-resources";
import { createPublicTenant, createUserWithEmail, sessionFor, TEST_CONTEXT } from "./public-api";

export const ORIGIN = "http://localhost:3000";

type Handler = (
  req: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/**
 * Sends a request to the OpenID Provider's route handlers as Next.js would route it (the discovery
 * document, the interaction route, the `oauth/[...path]` catch-all), or answers 404.
 */
export async function dispatch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const match = /^\/t\/([^/]+)\/(.*)$/.exec(url.pathname);
  if (!match) return new Response("not found", { status: 404 });
  const [, tenantId, rest] = match as unknown as [string, string, string];
  const method = request.method as "GET" | "POST" | "OPTIONS";
  let handler: Handler | undefined;
  let params: Record<string, string | string[]> = { tenantId };
  const interaction = /^oauth\/interaction\/([^/]+)$/.exec(rest);
  if (rest === ".well-known/openid-configuration") {
    handler = (discoveryRoute as unknown as Record<string, Handler>)[method];
  } else if (interaction) {
    handler = (interactionRoute as unknown as Record<string, Handler>)[method];
    params = { tenantId, uid: interaction[1]! };
  } else if (rest.startsWith("oauth/")) {
    handler = (oauthRoute as unknown as Record<string, Handler>)[method];
    params = { tenantId, path: rest.slice("oauth/".length).split("/") };
  }
  if (!handler) return new Response("not found", { status: 404 });
  // scripts/server.mjs appends the socket address to every request.
  const headers = new Headers(request.headers);
  headers.set("x-forwarded-for", "127.0.0.1");
  const forwarded = new Request(request.url, {
    method: request.method,
    headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
  });
  return handler(forwarded, { params: Promise.resolve(params) });
}

/** openid-client's fetch, answered by the route handlers. */
export const routeFetch = ((input: string | URL | Request, init?: RequestInit) =>
  dispatch(new Request(input, init))) as typeof fetch;

/** A browser: a cookie jar in front of the route handlers; follows nothing by itself. */
export class Browser {
  readonly cookies = new Map<string, string>();

  setCookie(name: string, value: string) {
    this.cookies.set(name, value);
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await dispatch(new Request(new URL(url, ORIGIN), { ...init, headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /**
   * Follows redirects from `url` until one leaves Sesame's OpenID routes (the relying party's redirect
   * URI, the hosted login page) or a page answers; returns the last response and its URL.
   */
  async follow(url: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hops = 0; hops < 12 && response.status >= 300 && response.status < 400; hops++) {
      const location = response.headers.get("location")!;
      current = new URL(location, new URL(current, ORIGIN)).href;
      const target = new URL(current);
      if (target.origin !== ORIGIN || !/^\/t\/[^/]+\/(oauth|\.well-known)\//.test(target.pathname)) break;
      response = await this.request(current);
    }
    return { response, url: current };
  }
}

export const issuerOf = (tenant: Tenant) => `${ORIGIN}/t/${tenant.id}`;

/** openid-client's view of the tenant's provider, for a client. */
export function discover(
  tenant: Tenant,
  clientId: string,
  secret?: string,
  metadata: Partial<client.ClientMetadata> = {},
): Promise<client.Configuration> {
  return client.discovery(
    new URL(issuerOf(tenant)),
    clientId,
    metadata,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    {
      [client.customFetch]: routeFetch as unknown as client.CustomFetch,
      execute: [client.allowInsecureRequests],
    },
  );
}

export const REDIRECT = "http://localhost:4000/callback";

export type Setup = Awaited<ReturnType<typeof setUp>>;

export async function setUp(
  options: {
    firstParty?: boolean;
    public?: boolean;
    offline?: boolean;
    tenant?: Tenant;
    signedIn?: boolean;
    /** A platform user (the admin API's kind) instead of a Passkey API user. */
    platformUser?: boolean;
    /** More client metadata (e.g. `backchannel_logout_uri`). */
    metadata?: Partial<OAuthClientInput>;
  } = {},
) {
  const tenant = options.tenant ?? (await createPublicTenant());
  const email = `ada-${crypto.randomUUID()}@example.com`;
  const user = options.platformUser
    ? await platformUserWithEmail(tenant, email)
    : await createUserWithEmail(tenant, email);
  const { client: rp, secret } = await createOAuthClient(
    tenant.id,
    {
      client_name: "Example app",
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: ["http://localhost:4000/"],
      grant_types: options.offline ? ["authorization_code", "refresh_token"] : ["authorization_code"],
      token_endpoint_auth_method: options.public ? "none" : "client_secret_basic",
      first_party: options.firstParty ?? true,
      ...options.metadata,
    },
    TEST_CONTEXT,
  );
  const config = await discover(tenant, rp.clientId, secret);
  const browser = new Browser();
  if (options.signedIn !== false) {
    browser.setCookie(tenant.platform.session.cookie.name, await sessionFor(tenant, user, ["passkey"]));
  }
  return { tenant, user, email, rp, secret, config, browser };
}

/** Starts an authorization as the RP would and follows the browser to the redirect URI. */
export async function authorize(setup: Setup, params: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(setup.config, {
    redirect_uri: REDIRECT,
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...params,
  });
  const { response, url: landed } = await setup.browser.follow(url.href);
  return { response, landed, verifier, state, nonce };
}

/** A whole sign-in: the authorization in the browser, then the code redeemed as the RP does. */
export async function signIn(setup: Setup, params: Record<string, string> = {}) {
  const started = await authorize(setup, params);
  return client.authorizationCodeGrant(setup.config, new URL(started.landed), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
  });
}

/**
 * RP-initiated logout in the browser: the end-session URL with `params`, then the confirmation form
 * submitted with "yes". Returns the confirmation page's and the submission's responses.
 */
export async function logOutAtProvider(setup: Setup, params: Record<string, string>) {
  const confirm = await setup.browser.request(client.buildEndSessionUrl(setup.config, params).href);
  const form = await confirm.clone().text();
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)![1]!;
  const action = /action="([^"]+)"/.exec(form)![1]!;
  const done = await setup.browser.request(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ xsrf, logout: "yes" }),
  });
  return { confirm, done };
}
