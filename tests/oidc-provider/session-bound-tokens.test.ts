import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "@/lib/tenants";
import { authorize, Browser, REDIRECT, setUp, signIn, type Setup } from "../helpers/openid";
import { createPublicTenant, sessionFor } from "../helpers/public-api";
import { SESSION_ENDS } from "../helpers/session-ends";

/** Access, refresh and ID token of a sign-in with `offline_access` (OpenID Connect Core §11: with consent). */
const offlineSignIn = (setup: Setup) =>
  signIn(setup, { scope: "openid email offline_access", prompt: "consent" });

type Tokens = { access_token: string; refresh_token?: string };

function basic(setup: Setup) {
  return `Basic ${Buffer.from(`${setup.rp.clientId}:${setup.secret}`).toString("base64")}`;
}

async function introspect(setup: Setup, token: string): Promise<Record<string, unknown>> {
  const response = await setup.browser.request(`/t/${setup.tenant.id}/oauth/introspect`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(setup) },
    body: new URLSearchParams({ token }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function userinfo(setup: Setup, accessToken: string) {
  return setup.browser.request(`/t/${setup.tenant.id}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
}

/** The tokens work: both introspect as active (the refresh token is not used up), UserInfo answers. */
async function expectWorking(setup: Setup, tokens: Tokens) {
  expect(await introspect(setup, tokens.access_token)).toMatchObject({ active: true, sub: setup.user.id });
  expect(await introspect(setup, tokens.refresh_token!)).toMatchObject({ active: true });
  const info = await userinfo(setup, tokens.access_token);
  expect(info.status).toBe(200);
  expect(await info.json()).toMatchObject({ sub: setup.user.id });
}

/** The access token stopped: introspection inactive, UserInfo 401 invalid_token. */
async function expectAccessEnded(setup: Setup, accessToken: string) {
  expect(await introspect(setup, accessToken)).toEqual({ active: false });
  const info = await userinfo(setup, accessToken);
  expect(info.status).toBe(401);
  expect(info.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
}

/** Offline access goes on: the refresh grant answers, and its access token works. */
async function expectOfflineAccess(setup: Setup, refreshToken: string) {
  const refreshed = await client.refreshTokenGrant(setup.config, refreshToken);
  const info = await userinfo(setup, refreshed.access_token);
  expect(info.status).toBe(200);
  expect(await info.json()).toMatchObject({ sub: setup.user.id });
  return refreshed;
}

/** The ends that end the user, not only the session: offline access ends too. */
const ENDS_THE_USER = new Set([
  "the account is deleted in the profile flow (flow API account_delete)",
  "the user is locked",
  "the user is deleted",
]);

describe("OpenID Provider: codes and access tokens end with the Sesame session they were issued under", () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await createPublicTenant({ platform: { account: { allowDeletion: true } } });
  });

  const signedIn = async () => {
    const setup = await setUp({ tenant, offline: true, platformUser: true });
    const tokens = await offlineSignIn(setup);
    const sessionId = tokens.claims()!.sid as string;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    return { setup, tokens, sessionId };
  };

  for (const [path, end] of Object.entries(SESSION_ENDS)) {
    const offline = ENDS_THE_USER.has(path) ? "refresh refused" : "offline access goes on";
    it(`${path}: the access token inactive, UserInfo refused; ${offline}`, async () => {
      const { setup, tokens, sessionId } = await signedIn();
      await expectWorking(setup, tokens);
      await end(setup, sessionId, tokens.id_token!);
      await expectAccessEnded(setup, tokens.access_token);
      if (ENDS_THE_USER.has(path)) {
        expect(await introspect(setup, tokens.refresh_token!)).toEqual({ active: false });
        await expect(client.refreshTokenGrant(setup.config, tokens.refresh_token!)).rejects.toMatchObject({
          error: "invalid_grant",
        });
      } else {
        // OpenID Connect Back-Channel Logout 1.0 §2.7: offline_access refresh tokens outlive the session.
        await expectOfflineAccess(setup, tokens.refresh_token!);
      }
    });
  }

  it("ends an authorization code not yet redeemed; a refresh's tokens are offline access", async () => {
    const { setup, tokens, sessionId } = await signedIn();
    // A refresh rotates the refresh token: the new pair names the same session, and is offline access.
    const rotated = await client.refreshTokenGrant(setup.config, tokens.refresh_token!);
    expect(rotated.claims()!.sid).toBe(sessionId);
    await expectWorking(setup, rotated);
    const pending = await authorize(setup, { scope: "openid email" });
    expect(pending.landed.startsWith(REDIRECT)).toBe(true);
    await SESSION_ENDS["an admin revokes it"](setup, sessionId);
    await expectAccessEnded(setup, tokens.access_token);
    await expectWorking(setup, rotated);
    await expect(
      client.authorizationCodeGrant(setup.config, new URL(pending.landed), {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
      }),
    ).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("leaves the tokens of the user's other sessions working", async () => {
    const first = await signedIn();
    // The same user and client in a second browser: another Sesame session.
    const other: Setup = { ...first.setup, browser: new Browser() };
    other.browser.setCookie(tenant.platform.session.cookie.name, await sessionFor(tenant, first.setup.user));
    const otherTokens = await offlineSignIn(other);
    expect(otherTokens.claims()!.sid).not.toBe(first.sessionId);
    await SESSION_ENDS["sign-out (public API POST /logout)"](first.setup);
    await expectAccessEnded(first.setup, first.tokens.access_token);
    await expectWorking(other, otherTokens);
    const refreshed = await client.refreshTokenGrant(other.config, otherTokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });
});
