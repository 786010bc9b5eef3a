import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { getOAuthClient, listOAuthClients } from "@/lib/openid";
import { createTestTenant } from "../helpers/tenants";
import { sql } from "drizzle-orm";
import { sha256Hex } from "@/lib/crypto";
import { executor, rowsOf } from "@/lib/db";
import {
  authorize,
  Browser,
  issuerOf,
  logOutAtProvider,
  REDIRECT,
  setUp,
  signIn,
  type Setup,
} from "../helpers/openid";
import { createUserWithEmail, sessionFor } from "../helpers/public-api";

async function auditTypes(tenantId: string) {
  return (await listAuditEvents(tenantId, { limit: 200 })).items.map((item) => item.type);
}

/** Follows a third-party client's authorization to its consent page. */
async function toConsent(setup: Setup, scope = "openid email") {
  const started = await authorize(setup, { scope });
  expect(started.response.status).toBe(200);
  const page = await started.response.text();
  expect(new URL(started.landed).pathname).toMatch(/\/oauth\/interaction\//);
  return { ...started, page };
}

async function decide(setup: Setup, interactionUrl: string, decision: string, browser = setup.browser) {
  const response = await browser.request(interactionUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision }),
  });
  if (response.status !== 303) return { response, url: interactionUrl };
  return browser.follow(new URL(response.headers.get("location")!, interactionUrl).href);
}

describe("OpenID Provider: consent", () => {
  beforeAll(() => setUp());

  it("asks a third-party client's user, remembers the answer per user and client", async () => {
    const setup = await setUp({ firstParty: false });
    const consent = await toConsent(setup);
    expect(consent.page).toContain("Example app");
    expect(consent.page).toContain("See your email address");
    expect(consent.response.headers.get("referrer-policy")).toBe("no-referrer");
    const { url } = await decide(setup, consent.landed, "allow");
    expect(url.startsWith(REDIRECT)).toBe(true);
    const tokens = await client.authorizationCodeGrant(setup.config, new URL(url), {
      pkceCodeVerifier: consent.verifier,
      expectedState: consent.state,
      expectedNonce: consent.nonce,
    });
    expect(tokens.claims()?.email).toBe(setup.email);
    expect(await auditTypes(setup.tenant.id)).toContain("oauth.consent.granted");

    // Another browser of the same user (a new Sesame session): no question asked again.
    const second = new Browser();
    second.setCookie(setup.tenant.platform.session.cookie.name, await sessionFor(setup.tenant, setup.user));
    const again = await authorize({ ...setup, browser: second }, { scope: "openid email" });
    expect(again.landed.startsWith(REDIRECT)).toBe(true);
    // A scope not consented to yet is asked for.
    const more = await toConsent({ ...setup, browser: second }, "openid email profile");
    expect(more.page).toContain("See your name and username");
    expect(more.page).not.toContain("See your email address");
  });

  it("denied: access_denied at the redirect URI, nothing remembered", async () => {
    const setup = await setUp({ firstParty: false });
    const consent = await toConsent(setup);
    const { url } = await decide(setup, consent.landed, "deny");
    const query = new URL(url).searchParams;
    expect(query.get("error")).toBe("access_denied");
    expect(query.get("iss")).toBe(issuerOf(setup.tenant));
    expect(query.get("code")).toBeNull();
    const retry = await toConsent(setup);
    expect(retry.page).toContain("See your email address");
  });

  it("refuses a decision without the interaction cookie or from another user, and bad input", async () => {
    const setup = await setUp({ firstParty: false });
    const consent = await toConsent(setup);
    // Another browser (no interaction cookie: what a cross-site form post sends with SameSite=Lax).
    const stranger = new Browser();
    const other = await createUserWithEmail(setup.tenant);
    stranger.setCookie(setup.tenant.platform.session.cookie.name, await sessionFor(setup.tenant, other));
    const forged = await decide(setup, consent.landed, "allow", stranger);
    expect(forged.response.status).toBe(400);
    // The interaction's own browser, now signed in as someone else.
    const swapped = new Browser();
    for (const [name, value] of setup.browser.cookies) swapped.setCookie(name, value);
    swapped.setCookie(setup.tenant.platform.session.cookie.name, await sessionFor(setup.tenant, other));
    expect((await decide(setup, consent.landed, "allow", swapped)).response.status).toBe(400);
    for (const decision of ["", "maybe", "x".repeat(5000)]) {
      const { response } = await decide(setup, consent.landed, decision);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("decision must be allow or deny");
    }
    // Still undecided: the right browser can allow.
    expect((await decide(setup, consent.landed, "allow")).url.startsWith(REDIRECT)).toBe(true);
  });

  it("answers an unknown or expired interaction with a page, never a 500", async () => {
    const setup = await setUp();
    const response = await setup.browser.request(`/t/${setup.tenant.id}/oauth/interaction/nope`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("expired");
  });
});

describe("OpenID Provider: logout", () => {
  it("RP-initiated logout ends the Sesame session and returns to the registered URI with state", async () => {
    const setup = await setUp();
    const tokens = await signIn(setup);
    const { confirm, done } = await logOutAtProvider(setup, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "http://localhost:4000/",
      state: "bye",
    });
    expect(confirm.status).toBe(200);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("http://localhost:4000/?state=bye");
    expect(done.headers.getSetCookie().join("\n")).toContain(
      `${setup.tenant.platform.session.cookie.name}=;`,
    );
    expect(setup.browser.cookies.has(setup.tenant.platform.session.cookie.name)).toBe(false);
    expect(await auditTypes(setup.tenant.id)).toContain("user.logged_out");
    // Signed out everywhere: prompt=none now answers login_required.
    const silent = await authorize(setup, { prompt: "none" });
    expect(new URL(silent.landed).searchParams.get("error")).toBe("login_required");
  });

  it("refuses an unregistered post_logout_redirect_uri", async () => {
    const setup = await setUp();
    const tokens = await signIn(setup);
    const url = client.buildEndSessionUrl(setup.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://evil.example/",
    });
    const response = await setup.browser.request(url.href);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it("a Sesame logout elsewhere ends the provider's single sign-on (prompt=none: login_required)", async () => {
    const setup = await setUp();
    expect((await authorize(setup)).landed.startsWith(REDIRECT)).toBe(true);
    // The Sesame session ends (another browser tab's logout): the cookie is gone or no longer valid.
    setup.browser.cookies.delete(setup.tenant.platform.session.cookie.name);
    const silent = await authorize(setup, { prompt: "none" });
    expect(new URL(silent.landed).searchParams.get("error")).toBe("login_required");
  });
});

describe("OpenID Provider: dynamic client registration (RFC 7591)", () => {
  it("registers with the tenant's admin API key as initial access token; secrets are stored hashed", async () => {
    const { tenant, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
    const register = (authorization: string | undefined, body: unknown) =>
      new Browser().request(`/t/${tenant.id}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
      });
    const metadata = { redirect_uris: ["https://app.example.com/cb"], client_name: "Registered" };
    expect((await register(undefined, metadata)).status).toBe(401);
    expect((await register(`Bearer ${keys.passkey}`, metadata)).status).toBe(401);
    const other = await createTestTenant();
    expect((await register(`Bearer ${other.keys.admin}`, metadata)).status).toBe(401);

    const bad = await register(`Bearer ${keys.admin}`, { redirect_uris: ["http://app.example.com/cb"] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_redirect_uri" });

    // Sesame POSTs logout tokens to a back-channel logout URI: the webhooks' SSRF guard, as for the admin API.
    for (const uri of ["https://10.0.0.7/bc", "https://169.254.169.254/", "http://93.184.215.14/bc"]) {
      const refused = await register(`Bearer ${keys.admin}`, { ...metadata, backchannel_logout_uri: uri });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: "invalid_client_metadata",
        error_description: expect.stringMatching(/^backchannel_logout_uri /),
      });
    }
    expect((await listOAuthClients(tenant.id)).total).toBe(0);

    const created = await register(`Bearer ${keys.admin}`, metadata);
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ client_name: "Registered", redirect_uris: ["https://app.example.com/cb"] });
    expect(body.client_secret).toMatch(/.{32,}/);
    const stored = await getOAuthClient(tenant.id, body.client_id);
    expect(JSON.stringify(stored)).not.toContain(body.client_secret);
    const db = await executor();
    const [row] = rowsOf<{ secret: string }>(
      await db.execute(
        sql`select metadata->>'client_secret' as secret from oauth_clients where client_id = ${body.client_id}`,
      ),
    );
    expect(row!.secret).toBe(`sha256:${sha256Hex(body.client_secret)}`);
  });
});
