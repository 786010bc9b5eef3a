import * as client from "openid-client";
import { describe, expect, it } from "vitest";
import * as collection from "@/app/(public-api)/t/[tenantId]/connected_apps/route";
import * as item from "@/app/(public-api)/t/[tenantId]/connected_apps/[clientId]/route";
import { listAuditEvents } from "@/lib/audit";
import { authorize, REDIRECT, setUp, type Setup } from "../helpers/openid";
import { createUserWithEmail, expectPublicError, publicCall, sessionFor } from "../helpers/public-api";

const ORIGIN = "http://localhost:3000";

/** A third-party client's sign-in with consent (offline_access: a refresh token too). */
async function consentedSignIn(setup: Setup, scope = "openid email offline_access") {
  const started = await authorize(setup, { scope, prompt: "consent" });
  expect(new URL(started.landed).pathname).toMatch(/\/oauth\/interaction\//);
  const response = await setup.browser.request(started.landed, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision: "allow" }),
  });
  const { url } = await setup.browser.follow(new URL(response.headers.get("location")!, started.landed).href);
  expect(url.startsWith(REDIRECT)).toBe(true);
  return client.authorizationCodeGrant(setup.config, new URL(url), {
    pkceCodeVerifier: started.verifier,
    expectedState: started.state,
    expectedNonce: started.nonce,
  });
}

const list = (setup: Setup, token: string) =>
  publicCall(collection.GET, setup.tenant, "GET", "/connected_apps", { token });
const revoke = (
  setup: Setup,
  clientId: string,
  options: { token?: string; cookie?: string; origin?: string },
) => publicCall(item.DELETE, setup.tenant, "DELETE", `/connected_apps/${clientId}`, options, { clientId });

describe("connected apps (public API)", () => {
  it("lists the apps the user consented to and revokes one with its tokens; the next sign-in asks again", async () => {
    const setup = await setUp({ firstParty: false, offline: true });
    const tokens = await consentedSignIn(setup);
    expect(tokens.refresh_token).toBeTruthy();
    const token = await sessionFor(setup.tenant, setup.user);

    const listed = await list(setup, token);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      {
        client_id: setup.rp.clientId,
        name: "Example app",
        scopes: expect.arrayContaining(["openid", "email", "offline_access"]),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);

    // Cookie-authenticated state changes need an allowed Origin.
    const cookie = await sessionFor(setup.tenant, setup.user);
    await expectPublicError(
      await revoke(setup, setup.rp.clientId, { cookie, origin: "https://evil.example" }),
      403,
    );
    expect(await (await list(setup, token)).json()).toHaveLength(1);

    const res = await revoke(setup, setup.rp.clientId, { cookie, origin: ORIGIN });
    expect(res.status).toBe(204);
    expect(await (await list(setup, token)).json()).toEqual([]);

    // The tokens issued to the app for this user are gone.
    await expect(client.refreshTokenGrant(setup.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(
      client.fetchUserInfo(setup.config, tokens.access_token, client.skipSubjectCheck),
    ).rejects.toBeDefined();
    const introspected = await client.tokenIntrospection(setup.config, tokens.access_token);
    expect(introspected.active).toBe(false);

    // The next authorization asks for consent again.
    const again = await authorize(setup, { scope: "openid email" });
    expect(new URL(again.landed).pathname).toMatch(/\/oauth\/interaction\//);
    expect(await again.response.text()).toContain("See your email address");

    const events = (await listAuditEvents(setup.tenant.id, { limit: 100 })).items;
    const revoked = events.find((event) => event.type === "oauth.consent.revoked");
    expect(revoked).toMatchObject({ actor: setup.user.id, details: { clientId: setup.rp.clientId } });
    expect(events.map((event) => event.type)).toContain("oauth.consent.granted");
  });

  it("another user's consent is a 404 and stays; bad ids 400; no session 401", async () => {
    const setup = await setUp({ firstParty: false });
    await consentedSignIn(setup, "openid email");
    const mallory = await createUserWithEmail(setup.tenant, `mallory-${crypto.randomUUID()}@example.com`);
    const theirs = await sessionFor(setup.tenant, mallory);
    expect(await (await list(setup, theirs)).json()).toEqual([]);
    await expectPublicError(await revoke(setup, setup.rp.clientId, { token: theirs }), 404);
    await expectPublicError(await revoke(setup, "client_unknown", { token: theirs }), 404);
    await expectPublicError(await revoke(setup, "a%20b", { token: theirs }), 400, /clientId/);
    await expectPublicError(await list(setup, "not-a-token"), 401);
    await expectPublicError(await revoke(setup, setup.rp.clientId, {}), 401);
    const mine = await sessionFor(setup.tenant, setup.user);
    expect(await (await list(setup, mine)).json()).toHaveLength(1);

    // A user of another tenant: their session is refused here.
    const other = await setUp({ firstParty: false });
    const foreign = await sessionFor(other.tenant, other.user);
    await expectPublicError(await list(setup, foreign), 401);
  });
});
