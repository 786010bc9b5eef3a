import * as client from "openid-client";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { createOAuthClient, updateOAuthClient } from "@/lib/openid";
import { getJwks } from "@/lib/tenants";
import { authorize, discover, issuerOf, REDIRECT, setUp, signIn, type Setup } from "../helpers/openid";
import { TEST_CONTEXT } from "../helpers/public-api";

/** OpenID Connect Core §11: `offline_access` counts only with `prompt=consent`. */
function login(setup: Setup, scope = "openid email profile") {
  return signIn(setup, { scope, ...(scope.includes("offline_access") ? { prompt: "consent" } : {}) });
}

function basic(setup: Setup) {
  return `Basic ${Buffer.from(`${setup.rp.clientId}:${setup.secret}`).toString("base64")}`;
}

async function post(setup: Setup, path: string, form: Record<string, string>, authorization = basic(setup)) {
  return setup.browser.request(`/t/${setup.tenant.id}/oauth/${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization },
    body: new URLSearchParams(form),
  });
}

describe("OpenID Provider: token endpoint and tokens", () => {
  beforeAll(() => setUp());

  it("refuses a reused code and revokes the tokens issued from it (code replay)", async () => {
    const setup = await setUp();
    const started = await authorize(setup);
    const tokens = await client.authorizationCodeGrant(setup.config, new URL(started.landed), {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
      expectedNonce: started.nonce,
    });
    await expect(
      client.fetchUserInfo(setup.config, tokens.access_token, setup.user.id),
    ).resolves.toBeDefined();
    const code = new URL(started.landed).searchParams.get("code")!;
    const again = await post(setup, "token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      code_verifier: started.verifier,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    await expect(
      client.fetchUserInfo(setup.config, tokens.access_token, setup.user.id),
    ).rejects.toBeDefined();
    const events = (await listAuditEvents(setup.tenant.id, { limit: 50 })).items;
    expect(events.find((event) => event.type === "oauth.token.issued")).toMatchObject({
      actor: `oauth_client:${setup.rp.clientId}`,
      details: { clientId: setup.rp.clientId, grantType: "authorization_code", userId: setup.user.id },
    });
    expect(events.find((event) => event.type === "oauth.token.refused")).toMatchObject({
      details: { error: "invalid_grant", reason: "authorization code already consumed" },
    });
    expect(events.map((event) => event.type)).toContain("oauth.token.revoked");
  });

  it("binds a code to its client and redirect URI (code injection)", async () => {
    const setup = await setUp();
    const { client: other, secret } = await createOAuthClient(
      setup.tenant.id,
      { redirect_uris: [REDIRECT, "http://localhost:4000/other"] },
      TEST_CONTEXT,
    );
    const started = await authorize(setup);
    const code = new URL(started.landed).searchParams.get("code")!;
    const stolen = await post(
      setup,
      "token",
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: started.verifier },
      `Basic ${Buffer.from(`${other.clientId}:${secret}`).toString("base64")}`,
    );
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    const second = await authorize(setup);
    const wrongUri = await post(setup, "token", {
      grant_type: "authorization_code",
      code: new URL(second.landed).searchParams.get("code")!,
      redirect_uri: "http://localhost:4000/other",
      code_verifier: second.verifier,
    });
    expect(await wrongUri.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("authenticates clients: a wrong secret is invalid_client with 401 and WWW-Authenticate", async () => {
    const setup = await setUp();
    const response = await post(
      setup,
      "token",
      { grant_type: "client_credentials" },
      `Basic ${Buffer.from(`${setup.rp.clientId}:wrong-secret`).toString("base64")}`,
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
    const unsupported = await post(setup, "token", { grant_type: "password", username: "a", password: "b" });
    expect(await unsupported.json()).toMatchObject({ error: "unsupported_grant_type" });
  });

  it("issues refresh tokens only with offline_access, rotates them, and a reuse revokes the family", async () => {
    const setup = await setUp({ offline: true });
    const without = await login(setup, "openid email");
    expect(without.refresh_token).toBeUndefined();

    const tokens = await login(setup, "openid email offline_access");
    expect(tokens.refresh_token).toBeTruthy();
    const rotated = await client.refreshTokenGrant(setup.config, tokens.refresh_token!);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.claims()?.sub).toBe(setup.user.id);

    // The old one again: refused, and the rotated one with it (RFC 9700 §4.14.2).
    await expect(client.refreshTokenGrant(setup.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(client.refreshTokenGrant(setup.config, rotated.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(
      client.fetchUserInfo(setup.config, rotated.access_token, setup.user.id),
    ).rejects.toBeDefined();
  });

  it("client_credentials: machine-to-machine access tokens for confidential clients, no ID token", async () => {
    const setup = await setUp();
    await updateOAuthClient(
      setup.tenant.id,
      setup.rp.clientId,
      { grant_types: ["authorization_code", "client_credentials"], resources: ["https://api.example.com"] },
      TEST_CONTEXT,
    );
    const config = await discover(setup.tenant, setup.rp.clientId, setup.secret);
    const tokens = await client.clientCredentialsGrant(config, { resource: "https://api.example.com" });
    expect(tokens.id_token).toBeUndefined();
    // RFC 9068: a JWT for the resource, verifiable offline with the tenant's JWKS.
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: "at+jwt" });
    const { payload } = await jwtVerify(
      tokens.access_token,
      createLocalJWKSet(await getJwks(setup.tenant.id)),
      {
        issuer: issuerOf(setup.tenant),
        audience: "https://api.example.com",
        typ: "at+jwt",
      },
    );
    expect(payload).toMatchObject({ client_id: setup.rp.clientId, sub: setup.rp.clientId });
    // A resource the client does not have is refused.
    await expect(
      client.clientCredentialsGrant(config, { resource: "https://other.example.com" }),
    ).rejects.toMatchObject({
      error: "invalid_target",
    });
    // A public client has no client_credentials.
    const pub = await setUp({ public: true });
    const response = await post(
      pub,
      "token",
      { grant_type: "client_credentials", client_id: pub.rp.clientId },
      "",
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it("issues RFC 9068 access tokens for a resource in the code flow", async () => {
    const setup = await setUp();
    await updateOAuthClient(
      setup.tenant.id,
      setup.rp.clientId,
      { resources: ["https://api.example.com"] },
      TEST_CONTEXT,
    );
    const config = await discover(setup.tenant, setup.rp.clientId, setup.secret);
    const started = await authorize({ ...setup, config }, { resource: "https://api.example.com" });
    const tokens = await client.authorizationCodeGrant(
      config,
      new URL(started.landed),
      {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
      },
      { resource: "https://api.example.com" },
    );
    const { payload, protectedHeader } = await jwtVerify(
      tokens.access_token,
      createLocalJWKSet(await getJwks(setup.tenant.id)),
      { issuer: issuerOf(setup.tenant), audience: "https://api.example.com" },
    );
    expect(protectedHeader.typ).toBe("at+jwt");
    expect(payload).toMatchObject({ sub: setup.user.id, client_id: setup.rp.clientId });
  });

  it("revokes tokens (RFC 7009) and introspects them for their own client only (RFC 7662)", async () => {
    const setup = await setUp({ offline: true });
    const tokens = await login(setup, "openid offline_access");
    const active = await client.tokenIntrospection(setup.config, tokens.access_token);
    expect(active).toMatchObject({ active: true, sub: setup.user.id, client_id: setup.rp.clientId });

    // Another client of the tenant learns nothing about it; a client of another tenant neither.
    const other = await setUp({ tenant: setup.tenant });
    expect(await client.tokenIntrospection(other.config, tokens.access_token)).toMatchObject({
      active: false,
    });
    const stranger = await setUp();
    const elsewhere = await post(stranger, "introspect", { token: tokens.access_token });
    expect(await elsewhere.json()).toEqual({ active: false });
    // Nor at another tenant's userinfo.
    await expect(
      client.fetchUserInfo(stranger.config, tokens.access_token, setup.user.id),
    ).rejects.toBeDefined();

    await client.tokenRevocation(setup.config, tokens.refresh_token!);
    await expect(client.refreshTokenGrant(setup.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await client.tokenRevocation(setup.config, tokens.access_token);
    expect(await client.tokenIntrospection(setup.config, tokens.access_token)).toMatchObject({
      active: false,
    });
    const unauthenticated = await post(setup, "introspect", { token: tokens.access_token }, "");
    expect(unauthenticated.status).toBe(400);
  });
});
