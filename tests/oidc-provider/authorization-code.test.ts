import { beforeAll, describe, expect, it } from "vitest";
import * as client from "openid-client";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { getJwks } from "@/lib/tenants";
import { authorize, Browser, issuerOf, ORIGIN, REDIRECT, setUp } from "../helpers/openid";

describe("OpenID Provider: authorization code with PKCE", () => {
  // The first provider of a process imports oidc-provider and the tenant's keys: not part of any test.
  beforeAll(() => setUp());

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
      email: setup.email,
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
    expect(info).toMatchObject({ sub: setup.user.id, email: setup.email, email_verified: true });
  });
});

function fetchJwks(uri: string) {
  return new Browser().request(uri.replace(ORIGIN, ""));
}
