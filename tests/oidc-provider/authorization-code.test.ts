import { describe, expect, it } from "vitest";
import * as client from "openid-client";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { createOAuthClient } from "@/lib/openid";
import { getJwks } from "@/lib/tenants";
import { Browser, discover, issuerOf, ORIGIN } from "../helpers/openid";
import { createPublicTenant, createUserWithEmail, sessionFor, TEST_CONTEXT } from "../helpers/public-api";

const REDIRECT = "http://localhost:4000/callback";

async function setUp(options: { firstParty?: boolean; public?: boolean; offline?: boolean } = {}) {
  const tenant = await createPublicTenant();
  const user = await createUserWithEmail(tenant, "ada@example.com");
  const { client: rp, secret } = await createOAuthClient(
    tenant.id,
    {
      client_name: "Example app",
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: ["http://localhost:4000/"],
      grant_types: options.offline ? ["authorization_code", "refresh_token"] : ["authorization_code"],
      token_endpoint_auth_method: options.public ? "none" : "client_secret_basic",
      first_party: options.firstParty ?? true,
    },
    TEST_CONTEXT,
  );
  const config = await discover(tenant, rp.clientId, secret);
  const browser = new Browser();
  browser.setCookie(tenant.platform.session.cookie.name, await sessionFor(tenant, user, ["passkey"]));
  return { tenant, user, rp, secret, config, browser };
}

/** Starts an authorization as the RP would and follows the browser to the redirect URI. */
async function authorize(
  setup: Awaited<ReturnType<typeof setUp>>,
  params: Record<string, string> = {},
) {
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

describe("OpenID Provider: authorization code with PKCE", () => {
  it("publishes discovery and the tenant's JWKS", async () => {
    const { tenant, config } = await setUp();
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuerOf(tenant));
    expect(metadata.authorization_endpoint).toBe(`${issuerOf(tenant)}/oauth/authorize`);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.response_types_supported).toEqual(["code"]);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.response_modes_supported).toEqual(expect.arrayContaining(["query", "form_post"]));
    const jwks = await (await fetchJwks(metadata.jwks_uri!)).json();
    const tenantJwks = await getJwks(tenant.id);
    expect(jwks.keys.map((key: { kid: string }) => key.kid)).toEqual(tenantJwks.keys.map((key) => key.kid));
    expect(JSON.stringify(jwks)).not.toContain('"d"');
  });

  it("signs a signed-in user in: code, tokens, ID token claims, userinfo", async () => {
    const setup = await setUp();
    const { landed, verifier, state, nonce } = await authorize(setup);
    expect(landed.startsWith(REDIRECT)).toBe(true);
    const callback = new URL(landed);
    expect(callback.searchParams.get("iss")).toBe(issuerOf(setup.tenant));
    const tokens = await client.authorizationCodeGrant(setup.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuerOf(setup.tenant),
      sub: setup.user.id,
      aud: setup.rp.clientId,
      nonce,
      email: "ada@example.com",
      email_verified: true,
      amr: ["hwk", "user"],
      acr: "urn:sesame:acr:phr",
    });
    expect(typeof claims.auth_time).toBe("number");
    expect(typeof claims.sid).toBe("string");
    const kid = decodeProtectedHeader(tokens.id_token!).kid;
    expect((await getJwks(setup.tenant.id)).keys.map((key) => key.kid)).toContain(kid);
    await jwtVerify(tokens.id_token!, createLocalJWKSet(await getJwks(setup.tenant.id)));
    expect(tokens.refresh_token).toBeUndefined();

    const info = await client.fetchUserInfo(setup.config, tokens.access_token, setup.user.id);
    expect(info).toMatchObject({ sub: setup.user.id, email: "ada@example.com", email_verified: true });
  });
});

function fetchJwks(uri: string) {
  return new Browser().request(uri.replace(ORIGIN, ""));
}
