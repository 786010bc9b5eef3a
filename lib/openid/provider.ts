import Provider, { errors, interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import { getConfig } from "@/lib/config";
import { getLogger } from "@/lib/log";
import { deriveKey } from "@/lib/crypto";
import { checkSessionToken, issuerOf } from "@/lib/sessions";
import { privateSigningJwks, type Tenant } from "@/lib/tenants";
import { ACR, accountClaims, accountOf, acrOf, rfc8176Amr } from "./account";
import { DatabaseAdapter } from "./adapter";
import { auditProviderEvents } from "./audit";
import { escapeHtml, pageHtml } from "./pages";
import { clientSecretMatches } from "./client-rules";
import { clientRowOf } from "./adapter";
import { findConsent } from "./store";

/** Where oidc-provider's endpoints sit below the issuer (`/t/{tenant}`). */
export const OPENID_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  userinfo: "/oauth/userinfo",
  jwks: "/oauth/jwks",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  introspection: "/oauth/introspect",
  end_session: "/oauth/logout",
  pushed_authorization_request: "/oauth/par",
  code_verification: "/oauth/device",
  device_authorization: "/oauth/device/auth",
  backchannel_authentication: "/oauth/backchannel",
  challenge: "/oauth/challenge",
} as const;

export const SCOPES = ["openid", "offline_access", "profile", "email"] as const;

/** Lifetimes in seconds. */
export const TTL = {
  AuthorizationCode: 60,
  AccessToken: 3600,
  IdToken: 3600,
  ClientCredentials: 600,
  RefreshToken: 30 * 24 * 3600,
  Interaction: 3600,
  Session: 14 * 24 * 3600,
  Grant: 30 * 24 * 3600,
} as const;

/** The path of the interaction Sesame answers for a pending authorization (login or consent). */
export const interactionPath = (tenantId: string, uid: string) => `/t/${tenantId}/oauth/interaction/${uid}`;

/** The Sesame session cookie of the tenant in a Cookie header. */
function sessionCookie(tenant: Tenant, header: string | undefined): string | undefined {
  const name = tenant.platform.session.cookie.name;
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The browser's Sesame session, when it has a live one. */
export async function browserSession(tenant: Tenant, cookieHeader: string | undefined) {
  const token = sessionCookie(tenant, cookieHeader);
  return token ? checkSessionToken(tenant, token) : undefined;
}

// The browser's Sesame session as checked once per request (both checks below need it): one token
// verification and one touch of the session row, not two.
const checkedSessions = new WeakMap<object, ReturnType<typeof browserSession>>();

function requestSession(tenant: Tenant, ctx: KoaContextWithOIDC) {
  let checked = checkedSessions.get(ctx.req);
  if (!checked) {
    checked = browserSession(tenant, ctx.headers.cookie);
    checkedSessions.set(ctx.req, checked);
  }
  return checked;
}

/**
 * Ties the OpenID Provider's session to the browser's Sesame session, in two parts:
 *
 * - a prompt evaluated before all others (prompts run one after the other, a prompt's checks all at
 *   once), which never asks anything: a browser signed in to Sesame but not yet to the provider is signed
 *   in to it at once with that session's user, sign-in time and methods (single sign-on: `prompt=none`
 *   works after any Sesame login);
 * - a check of the login prompt: a provider session whose Sesame session ended (hosted logout, the flow
 *   API, an admin revoking it) or now names another user asks for a login again (`login_required` with
 *   `prompt=none`).
 */
function sesameSignOn(tenant: Tenant) {
  return new interactionPolicy.Prompt(
    { name: "sesame_sso", requestable: false },
    new interactionPolicy.Check(
      "sesame_sso",
      "signs in from the Sesame session",
      async (ctx: KoaContextWithOIDC) => {
        const oidc = ctx.oidc as unknown as {
          session?: {
            accountId?: string;
            loginAccount(details: Record<string, unknown>): void;
            ensureClientContainer(clientId: string): void;
            grantIdFor(clientId: string, grantId?: string): string | undefined;
          };
          client: { clientId: string };
          provider: Provider;
          grant?: unknown;
          entity(name: string, value: unknown): void;
        };
        const session = oidc.session;
        if (!session) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        let account;
        if (!session.accountId) {
          const valid = await requestSession(tenant, ctx);
          if (!valid) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
          session.loginAccount({
            accountId: valid.user.id,
            loginTs: valid.claims.iat,
            amr: rfc8176Amr(valid.claims.amr),
            acr: acrOf(valid.claims.amr),
          });
          // The session check has just read the user (and refused a locked one): not read again.
          account = accountOf(tenant.id, valid.user);
        } else if (oidc.grant) {
          return interactionPolicy.Check.NO_NEED_TO_PROMPT; // oidc-provider loaded account and grant
        }
        // What oidc-provider loads before the prompts for a session that already has its user (it does not
        // when the user came with this request, or on the resume of an interaction that only consented).
        const accountId = session.accountId!;
        account ??= await accountClaims(tenant.id, accountId);
        if (!account) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        oidc.entity("Account", account);
        const clientId = oidc.client.clientId;
        let grant = await loadExistingGrant(tenant, ctx);
        if (grant) {
          session.ensureClientContainer(clientId);
          session.grantIdFor(clientId, grant.jti);
        } else {
          grant = new oidc.provider.Grant({ accountId, clientId });
        }
        oidc.entity("Grant", grant);
        return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      },
    ),
  );
}

function sesameSessionCheck(tenant: Tenant) {
  return new interactionPolicy.Check(
    "sesame_session",
    "End-User has no Sesame session",
    "login_required",
    async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT; // no_session asks
      const valid = await requestSession(tenant, ctx);
      if (valid?.user.id !== accountId) return interactionPolicy.Check.REQUEST_PROMPT;
      // The client's `sid` (in its code, ID token and logout token) is the Sesame session's id: the
      // session whose end sends it a back-channel logout token (lib/openid/backchannel.ts).
      (ctx.oidc.session as unknown as { sidFor(clientId: string, sid: string): void }).sidFor(
        ctx.oidc.client!.clientId,
        valid.session.id,
      );
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    },
  );
}

async function configuration(tenant: Tenant) {
  const keys = await privateSigningJwks(tenant.id);
  const algorithms = [...new Set(keys.map((key) => key.alg as string))];
  const policy = interactionPolicy.base();
  policy.get("login")!.checks.add(sesameSessionCheck(tenant));
  policy.unshift(sesameSignOn(tenant));
  const cookiePath = `/t/${tenant.id}`;
  const cookieKey = deriveKey("openid-cookies", tenant.id).toString("base64url");

  return {
    adapter: (name: string) => new DatabaseAdapter(tenant.id, name),
    clients: [],
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => accountClaims(tenant.id, sub),
    jwks: { keys },
    cookies: {
      keys: [cookieKey],
      names: {
        session: "sesame_op_session",
        interaction: "sesame_op_interaction",
        resume: "sesame_op_resume",
      },
      long: { httpOnly: true, sameSite: "lax", path: cookiePath, signed: true },
      short: { httpOnly: true, sameSite: "lax", path: cookiePath, signed: true },
    },
    claims: {
      // acr and amr in every ID token (a relying party checks how the user signed in without asking).
      openid: ["sub", "acr", "amr", "auth_time", "sid"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username", "given_name", "family_name", "picture"],
    },
    scopes: [...SCOPES],
    acrValues: Object.values(ACR),
    responseTypes: ["code"],
    responseModes: undefined,
    conformIdTokenClaims: false,
    pkce: {
      // Public clients must use PKCE; confidential ones may. S256 only (oidc-provider 9 has no `plain`).
      required: (_ctx: unknown, client: { tokenEndpointAuthMethod: string }) =>
        client.tokenEndpointAuthMethod === "none",
    },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    clientDefaults: {
      grant_types: ["authorization_code"],
      id_token_signed_response_alg: keys[0]!.alg,
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
    enabledJWA: {
      idTokenSigningAlgValues: algorithms,
      userinfoSigningAlgValues: algorithms,
      introspectionSigningAlgValues: algorithms,
      authorizationSigningAlgValues: algorithms,
      requestObjectSigningAlgValues: algorithms,
      clientAuthSigningAlgValues: [],
    },
    features: {
      devInteractions: { enabled: false },
      claimsParameter: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (
          ctx: KoaContextWithOIDC,
          client: { clientId: string },
          token: { clientId?: string },
        ) =>
          // A client learns only about its own tokens.
          token.clientId === client.clientId,
      },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      registration: {
        enabled: true,
        initialAccessToken: true,
        idFactory: () => `client_${crypto.randomUUID().replaceAll("-", "")}`,
      },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      backchannelLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (
          _ctx: unknown,
          resource: string,
          client: { metadata(): Record<string, unknown> },
        ) => {
          const allowed = client.metadata().resources;
          if (!Array.isArray(allowed) || !allowed.includes(resource)) {
            throw new errors.InvalidTarget("resource is not one of the client's resources");
          }
          return {
            scope: SCOPES.filter((scope) => scope !== "openid" && scope !== "offline_access").join(" "),
            audience: resource,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: keys[0]!.alg } },
          };
        },
      },
    },
    // Checked after the redirect URI (so the error goes to it): an authorization request must ask for
    // `openid` (Sesame is an OpenID Provider, not a plain OAuth 2.0 server).
    extraParams: { scope: requireOpenidScope },
    extraClientMetadata: {
      properties: ["resources"],
      validator: (_ctx: unknown, key: string, value: unknown) => {
        if (key !== "resources" || value === undefined) return;
        if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || !URL.canParse(item))) {
          throw new errors.InvalidClientMetadata("resources must be an array of absolute URIs");
        }
      },
    },
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) => interactionPath(tenant.id, interaction.uid),
    },
    loadExistingGrant: (ctx: KoaContextWithOIDC) => loadExistingGrant(tenant, ctx),
    issueRefreshToken: (
      _ctx: unknown,
      client: { grantTypeAllowed(type: string): boolean },
      code: { scopes: Set<string> },
    ) => client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
    rotateRefreshToken: true,
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: { ...TTL },
    renderError,
    routes: OPENID_ROUTES,
    expiresWithSession: () => false,
  };
}

/**
 * The grant an authorization continues with: the one the consent interaction made or the session
 * already has; else, for a first-party client or a user who consented before (remembered per user and
 * client), a new grant of the scopes consented to. Scopes beyond it make the consent prompt ask.
 */
async function loadExistingGrant(tenant: Tenant, ctx: KoaContextWithOIDC) {
  const oidc = ctx.oidc as unknown as {
    provider: Provider;
    client: { clientId: string };
    session: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    requestParamScopes: Set<string>;
  };
  const grantId = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
  if (grantId) return oidc.provider.Grant.find(grantId);
  const accountId = oidc.session.accountId;
  if (!accountId) return undefined;
  const client = await clientRowOf(tenant.id, oidc.client.clientId);
  if (!client) return undefined;
  const consented = client.firstParty
    ? [...oidc.requestParamScopes]
    : ((await findConsent(tenant.id, accountId, client.clientId))?.scopes ?? []);
  if (consented.length === 0) return undefined;
  const grant = new oidc.provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(consented.join(" "));
  await grant.save();
  return grant;
}

/** Parameters oidc-provider refuses with `invalid_request` before its scope checks when `openid` is absent. */
const OPENID_ONLY_PARAMS = ["nonce", "max_age", "acr_values", "claims", "claims_locales", "id_token_hint"];

const asksOpenid = (scope: unknown) => typeof scope === "string" && scope.split(" ").includes("openid");

function requireOpenidScope(ctx: KoaContextWithOIDC, scope: unknown) {
  if (ctx.oidc.route === "authorization" && !asksOpenid(scope)) {
    throw new errors.InvalidScope("the openid scope is required", "openid");
  }
}

/**
 * Koa middleware before oidc-provider's routes: an authorization request without `openid` loses the
 * parameters that only mean something with it, so that every such request gets the one answer,
 * `invalid_scope` at its redirect URI (requireOpenidScope), not `invalid_request` for some.
 */
async function withoutOpenidOnlyParams(
  ctx: { path: string; method: string; query: Record<string, unknown> },
  next: () => Promise<void>,
) {
  if (ctx.method === "GET" && ctx.path === OPENID_ROUTES.authorization && !asksOpenid(ctx.query.scope)) {
    const query = { ...ctx.query };
    for (const name of OPENID_ONLY_PARAMS) delete query[name];
    ctx.query = query;
  }
  await next();
}

/** The sign-out confirmation of RP-initiated logout: oidc-provider's form, Sesame's words. */
function logoutSource(ctx: { body: string }, form: string) {
  ctx.body = pageHtml(
    "Sign out",
    `${form}<h1>Sign out?</h1><p>Do you want to sign out of your account?</p>` +
      `<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>` +
      `<button type="submit" form="op.logoutForm">Stay signed in</button>`,
  );
}

function postLogoutSuccessSource(ctx: { body: string }) {
  ctx.body = pageHtml("Signed out", "<h1>Signed out</h1><p>You have been signed out.</p>");
}

/** An error the browser sees (no redirect URI to return to): its code and description, escaped. */
function renderError(
  ctx: { type: string; body: string },
  out: { error: string; error_description?: string },
) {
  ctx.type = "html";
  ctx.body = pageHtml(
    "Sign-in error",
    `<h1>Sign-in error</h1><p><code>${escapeHtml(out.error)}</code></p>` +
      (out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : ""),
  );
}

// One Provider per tenant and signing key set (configuration only: every model is in the database). A
// rotated key names a new active key id, which builds a new Provider at the next request.
const KEY = Symbol.for("sesame.openidProviders");
type Cache = Map<string, { version: string; provider: Promise<Provider> }>;
const holder = globalThis as { [KEY]?: Cache };

/** The tenant's OpenID Provider. */
export function providerFor(tenant: Tenant): Promise<Provider> {
  const cache = (holder[KEY] ??= new Map());
  const issuer = issuerOf(tenant);
  const version = `${issuer}|${tenant.activeSigningKeyId}`;
  const cached = cache.get(tenant.id);
  if (cached?.version === version) return cached.provider;
  const provider = configuration(tenant).then((config) => {
    const provider = new Provider(issuer, config as never);
    provider.proxy = false;
    provider.use(withoutOpenidOnlyParams);
    // Client secrets are stored as their SHA-256: compare the presented secret's hash.
    (
      provider.Client.prototype as unknown as { compareClientSecret(actual: string): boolean }
    ).compareClientSecret = function (this: { clientSecret?: string }, actual: string) {
      return clientSecretMatches(this.clientSecret, actual);
    };
    provider.on("server_error", (_ctx: unknown, error: Error) =>
      getLogger().error({ err: error, tenantId: tenant.id }, "OpenID Provider error"),
    );
    auditProviderEvents(provider, tenant.id);
    // Back-channel logout tokens go through the webhook outbox when the Sesame session ends (queued by
    // lib/openid/backchannel.ts, retried, SSRF-guarded), never by oidc-provider's own single in-process
    // fetch at RP-initiated logout (no retry, no address check, and only on that one path).
    (provider.Client.prototype as unknown as { backchannelLogout(): Promise<void> }).backchannelLogout =
      async () => undefined;
    // Every ID token names its session (`sid`), not only for clients with back-channel logout.
    (provider.Client.prototype as unknown as { includeSid(): boolean }).includeSid = () => true;
    return provider;
  });
  provider.catch(() => cache.delete(tenant.id));
  cache.set(tenant.id, { version, provider });
  return provider;
}

export const openidOrigin = () => getConfig().baseUrl;
