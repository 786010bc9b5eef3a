import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { createOAuthClient, deleteOAuthClient, updateOAuthClient } from "@/lib/openid";
import { authorize, issuerOf, REDIRECT, setUp } from "../helpers/openid";
import { TEST_CONTEXT } from "../helpers/public-api";

/** The authorization URL as the RP builds it, with `params` overriding or (undefined) removing. */
async function authUrl(setup: Awaited<ReturnType<typeof setUp>>, params: Record<string, string | undefined>) {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(setup.config, {
    redirect_uri: REDIRECT,
    scope: "openid email",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: "s1",
    nonce: "n1",
  });
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url.href;
}

/** Follows the browser from an authorization URL; the query (or form) the redirect URI got. */
async function landAt(setup: Awaited<ReturnType<typeof setUp>>, url: string) {
  const { response, url: landed } = await setup.browser.follow(url);
  return { response, landed, query: new URL(landed).searchParams };
}

describe("OpenID Provider: authorization request rules", () => {
  // The first provider of a process imports oidc-provider and the tenant's keys: not part of any test.
  beforeAll(() => setUp());

  it("requires PKCE S256 from public clients and refuses plain", async () => {
    const setup = await setUp({ public: true });
    const missing = await landAt(
      setup,
      await authUrl(setup, { code_challenge: undefined, code_challenge_method: undefined }),
    );
    expect(missing.landed.startsWith(REDIRECT)).toBe(true);
    expect(missing.query.get("error")).toBe("invalid_request");
    expect(missing.query.get("iss")).toBe(issuerOf(setup.tenant));
    const plain = await landAt(
      setup,
      await authUrl(setup, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }),
    );
    expect(plain.query.get("error")).toBe("invalid_request");
    expect(plain.query.get("code")).toBeNull();
  });

  it("refuses a code redeemed with the wrong verifier or without one (PKCE downgrade)", async () => {
    const setup = await setUp({ public: true });
    const first = await authorize(setup);
    await expect(
      client.authorizationCodeGrant(setup.config, new URL(first.landed), {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: first.state,
      }),
    ).rejects.toMatchObject({ error: "invalid_grant" });
    // A confidential client that sent a challenge must send the verifier too.
    const confidential = await setUp();
    const second = await authorize(confidential);
    const code = new URL(second.landed).searchParams.get("code")!;
    const response = await confidential.browser.request(`/t/${confidential.tenant.id}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${confidential.rp.clientId}:${confidential.secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("matches redirect URIs exactly and never redirects to an unregistered one (open redirector)", async () => {
    const setup = await setUp();
    for (const redirect of [
      `${REDIRECT}/more`,
      `${REDIRECT}?x=1`,
      "http://localhost:4000/callbacK",
      "https://evil.example/callback",
      "http://localhost:4000/callback#frag",
    ]) {
      const { response, landed } = await landAt(setup, await authUrl(setup, { redirect_uri: redirect }));
      expect(response.status).toBe(400);
      expect(landed.startsWith(redirect)).toBe(false);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("redirect_uri");
    }
  });

  it("sees a client's change at the next request (the client rows PGlite keeps in memory are forgotten)", async () => {
    const setup = await setUp();
    expect((await landAt(setup, await authUrl(setup, {}))).query.get("code")).toBeTruthy();
    const moved = "http://localhost:4000/moved";
    await updateOAuthClient(setup.tenant.id, setup.rp.clientId, { redirect_uris: [moved] }, TEST_CONTEXT);
    const old = await landAt(setup, await authUrl(setup, {}));
    expect(old.response.status).toBe(400);
    expect(old.landed.startsWith(REDIRECT)).toBe(false);
    const now = await landAt(setup, await authUrl(setup, { redirect_uri: moved }));
    expect(now.landed.startsWith(moved)).toBe(true);
    expect(now.query.get("code")).toBeTruthy();
    // Turned third-party: a browser without the grant (no provider session yet) is asked for consent.
    await updateOAuthClient(setup.tenant.id, setup.rp.clientId, { first_party: false }, TEST_CONTEXT);
    for (const name of [...setup.browser.cookies.keys()])
      if (name.startsWith("sesame_op_")) setup.browser.cookies.delete(name);
    const consent = await landAt(setup, await authUrl(setup, { redirect_uri: moved }));
    expect(consent.landed.startsWith(moved)).toBe(false);
    await deleteOAuthClient(setup.tenant.id, setup.rp.clientId, TEST_CONTEXT);
    const gone = await landAt(setup, await authUrl(setup, { redirect_uri: moved }));
    expect(gone.response.status).toBe(400);
    expect(await gone.response.text()).toContain("invalid_client");
  });

  it("allows http redirect URIs only on loopback hosts", async () => {
    const setup = await setUp();
    await expect(
      createOAuthClient(setup.tenant.id, { redirect_uris: ["http://app.example/cb"] }, TEST_CONTEXT),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    for (const uri of ["http://127.0.0.1:9000/cb", "http://[::1]/cb", "https://app.example/cb"]) {
      await expect(
        createOAuthClient(setup.tenant.id, { redirect_uris: [uri] }, TEST_CONTEXT),
      ).resolves.toBeDefined();
    }
  });

  it("answers other response types with unsupported_response_type at the redirect URI", async () => {
    const setup = await setUp();
    const { landed } = await landAt(setup, await authUrl(setup, { response_type: "token" }));
    expect(landed.startsWith(REDIRECT)).toBe(true);
    const url = new URL(landed);
    // A token response type answers in the fragment, as it would have delivered its tokens.
    const answer = new URLSearchParams(url.hash.slice(1) || url.search);
    expect(answer.get("error")).toBe("unsupported_response_type");
    expect(answer.get("access_token")).toBeNull();
  });

  it("answers with form_post when asked, with iss, and without a Referer", async () => {
    const setup = await setUp();
    const { response } = await landAt(setup, await authUrl(setup, { response_mode: "form_post" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    const page = await response.text();
    expect(page).toContain(`action="${REDIRECT}"`);
    expect(page).toMatch(/name="code" value="[^"]+"/);
    expect(page).toContain(`name="iss" value="${issuerOf(setup.tenant)}"`);
    expect(page).toContain('name="state" value="s1"');
  });

  it("sends a browser without a Sesame session to the hosted login, login_hint carried", async () => {
    const setup = await setUp({ signedIn: false });
    const { response, landed } = await landAt(setup, await authUrl(setup, { login_hint: "ada@example.com" }));
    expect(response.status).toBe(303);
    const login = new URL(landed);
    expect(login.pathname).toBe(`/t/${setup.tenant.id}/hosted/login`);
    expect(login.searchParams.get("login_hint")).toBe("ada@example.com");
    expect(login.searchParams.get("redirect_to")).toMatch(
      new RegExp(`^/t/${setup.tenant.id}/oauth/interaction/`),
    );
    // No new login was asked for: the hosted login may go on with a session the browser has there.
    expect(login.searchParams.has("prompt")).toBe(false);
  });

  it("answers prompt=none without a session with login_required", async () => {
    const setup = await setUp({ signedIn: false });
    const { query } = await landAt(setup, await authUrl(setup, { prompt: "none" }));
    expect(query.get("error")).toBe("login_required");
    expect(query.get("state")).toBe("s1");
  });

  it("answers prompt=none for a third-party client without consent with consent_required", async () => {
    const setup = await setUp({ firstParty: false });
    const { query } = await landAt(setup, await authUrl(setup, { prompt: "none" }));
    expect(query.get("error")).toBe("consent_required");
  });

  it("sends prompt=login and an exceeded max_age to the hosted login despite a session", async () => {
    const setup = await setUp();
    for (const params of [{ prompt: "login" }, { max_age: "0" }]) {
      const { landed } = await landAt(setup, await authUrl(setup, params));
      expect(new URL(landed).pathname).toBe(`/t/${setup.tenant.id}/hosted/login`);
      // The hosted login must ask for the sign-in even though the browser has a session.
      expect(new URL(landed).searchParams.get("prompt")).toBe("login");
    }
    // Without either, the same browser goes straight back with a code.
    const { query } = await landAt(setup, await authUrl(setup, {}));
    expect(query.get("code")).toBeTruthy();
  });

  it("refuses a client of another tenant (isolation)", async () => {
    const setup = await setUp();
    const other = await setUp();
    const url = new URL(await authUrl(setup, {}));
    url.pathname = url.pathname.replace(setup.tenant.id, other.tenant.id);
    const page = (await landAt(other, url.href)).response;
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("invalid_client");
    const response = await other.browser.request(`/t/${other.tenant.id}/oauth/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${setup.rp.clientId}:${setup.secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });
});

describe("OpenID Provider: the openid scope", () => {
  beforeAll(() => setUp());

  it("refuses an authorization request without the openid scope: invalid_scope at the redirect URI", async () => {
    const setup = await setUp();
    for (const [scope, extra] of [
      ["email profile", {}],
      ["offline_access", { nonce: undefined }],
      ["", { max_age: "60" }],
    ] as const) {
      const refused = await landAt(setup, await authUrl(setup, { scope, ...extra }));
      expect(refused.landed.startsWith(REDIRECT), scope).toBe(true);
      expect(refused.query.get("error"), scope).toBe("invalid_scope");
      expect(refused.query.get("state")).toBe("s1");
      expect(refused.query.get("iss")).toBe(issuerOf(setup.tenant));
      expect(refused.query.get("code")).toBeNull();
    }
  });
});
