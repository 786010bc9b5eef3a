import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Browser, type Page, type Request } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as client from "openid-client";
import {
  addAuthenticator,
  createAccountWithCode,
  enterPasscode,
  hankoEventCount,
  startFlow,
  startJourneyServer,
  type JourneyServer,
} from "./browser-journey";
import { startNextAuthApp, type NextAuthApp } from "./next-auth-rp";

/**
 * Sesame as the OpenID Provider of a real relying party: openid-client (in this process) with its
 * redirect and back-channel logout URIs on a loopback server, and Chromium with a CDP virtual
 * authenticator. Code + PKCE through the hosted login (sign-up with a mailed code and a passkey), tokens,
 * UserInfo, refresh, RP-initiated logout with its back-channel logout token, then a passkey sign-in
 * (autofill) for a new code. Then a small next-auth 4 app as the relying party: a passkey sign-up through
 * the hosted login, and single sign-on for a user signed in with Hanko's <hanko-auth>. One server for the
 * whole file.
 */

let journey: JourneyServer;
let rp: { url: string; logouts: string[]; close(): Promise<void> };
let config: client.Configuration;
let issuer: string;
let adminKey: string;
let nextAuth: NextAuthApp | undefined;

/** Registers an OAuth client with the admin API; its id and secret. */
async function registerClient(body: Record<string, unknown>) {
  const res = await fetch(`${issuer}/admin/oauth/clients`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { client_id: string; client_secret: string };
}

/** The relying party's loopback server: its pages answer "ok"; back-channel logout tokens are kept. */
async function startRelyingParty() {
  const logouts: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/backchannel-logout") {
        logouts.push(new URLSearchParams(Buffer.concat(chunks).toString()).get("logout_token") ?? "");
        res.writeHead(200).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logouts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  rp = await startRelyingParty();
  // The back-channel logout URI is on loopback: the server must be allowed to reach it.
  journey = await startJourneyServer("openid", undefined, { SESAME_WEBHOOKS_ALLOW_PRIVATE: "true" });
  issuer = `${journey.base}/t/${journey.tenantId}`;
  const demo = JSON.parse(fs.readFileSync(path.join(journey.dataDir, "demo-keys.json"), "utf8")) as {
    keys: { admin: string };
  };
  adminKey = demo.keys.admin;
  const created = await registerClient({
    client_name: "Loopback RP",
    redirect_uris: [`${rp.url}/callback`],
    post_logout_redirect_uris: [`${rp.url}/signed-out`],
    grant_types: ["authorization_code", "refresh_token"],
    backchannel_logout_uri: `${rp.url}/backchannel-logout`,
    first_party: true,
  });
  config = await client.discovery(
    new URL(issuer),
    created.client_id,
    {},
    client.ClientSecretBasic(created.client_secret),
    { execute: [client.allowInsecureRequests] },
  );
});

test.afterAll(async () => {
  await journey?.stop();
  await rp?.close();
  await nextAuth?.close();
});

/**
 * Sends the browser to the authorization endpoint; `signIn` runs on the hosted login (nothing to do for
 * a passkey autofill sign-in); returns the tokens and whether the hosted login was on the way.
 */
async function authorizationCode(page: Page, signIn: () => Promise<void>) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: `${rp.url}/callback`,
    scope: "openid email profile offline_access",
    prompt: "consent",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const visited: string[] = [];
  const record = (frame: { url(): string; parentFrame(): unknown }) => {
    if (!frame.parentFrame()) visited.push(frame.url());
  };
  page.on("framenavigated", record);
  await page.goto(url.href);
  await signIn();
  await page.waitForURL((landed) => landed.href.startsWith(`${rp.url}/callback`));
  page.off("framenavigated", record);
  expect(visited.some((seen) => seen.includes(`/t/${journey.tenantId}/hosted/login?`))).toBe(true);
  return client.authorizationCodeGrant(config, new URL(page.url()), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
}

test("openid-client signs in with code + PKCE through the hosted login (passkey), refreshes, reads UserInfo and logs out", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await addAuthenticator(cdp);
  const email = `openid-${Date.now()}@example.com`;
  const auth = page.locator("sesame-auth");
  let sub = "";
  let sid = "";

  await test.step("sign up on the hosted login (code, then a passkey); the code becomes tokens", async () => {
    const tokens = await authorizationCode(page, async () => {
      await page.waitForURL(/\/hosted\/login\?/);
      await createAccountWithCode(auth, journey.smtp, email);
      await auth.getByRole("button", { name: "Create a passkey" }).click();
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer, aud: config.clientMetadata().client_id, email });
    sub = claims.sub;
    sid = claims.sid as string;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);

    await test.step("UserInfo with the access token", async () => {
      const info = await client.fetchUserInfo(config, tokens.access_token, sub);
      expect(info).toMatchObject({ sub, email, email_verified: true });
    });

    await test.step("refresh: a new access token, the refresh token rotated", async () => {
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).toBeTruthy();
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect((await client.fetchUserInfo(config, refreshed.access_token, sub)).sub).toBe(sub);
    });

    await test.step("RP-initiated logout; the client gets a back-channel logout token for the session", async () => {
      const logout = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: `${rp.url}/signed-out`,
        state: "bye",
      });
      await page.goto(logout.href);
      await page.getByRole("button", { name: "Sign out", exact: true }).click();
      await page.waitForURL(`${rp.url}/signed-out?state=bye`);
      await expect.poll(() => rp.logouts.length, { timeout: 20_000 }).toBe(1);
      const { payload, protectedHeader } = await jwtVerify(
        rp.logouts[0]!,
        createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
        { issuer, audience: config.clientMetadata().client_id },
      );
      expect(protectedHeader.typ).toBe("logout+jwt");
      expect(payload).toMatchObject({
        sub,
        sid,
        events: { "http://schemas.openid.net/event/backchannel-logout": {} },
      });
    });
  });

  let again: Awaited<ReturnType<typeof authorizationCode>> | undefined;
  await test.step("sign in again with the passkey (autofill): a new session for the same user", async () => {
    // The hosted login's conditional UI finds the passkey and signs in by itself.
    again = await authorizationCode(page, async () => undefined);
    const claims = again.claims()!;
    expect(claims.sub).toBe(sub);
    expect(claims.sid).not.toBe(sid);
    expect(claims.amr).toContain("hwk");
  });

  await test.step("the hosted logout page signs out: that session's access token stops, a logout token goes", async () => {
    const tokens = again!;
    expect((await client.fetchUserInfo(config, tokens.access_token, sub)).sub).toBe(sub);
    await page.goto(`${journey.base}/t/${journey.tenantId}/hosted/logout`);
    await expect(page.locator("[data-hosted-view=logout]")).toHaveAttribute(
      "data-hosted-state",
      "signed-out",
    );
    await expect.poll(() => rp.logouts.length, { timeout: 20_000 }).toBe(2);
    const { payload } = await jwtVerify(
      rp.logouts[1]!,
      createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)),
      { issuer, audience: config.clientMetadata().client_id },
    );
    expect(payload).toMatchObject({ sub, sid: tokens.claims()!.sid });
    await expect(client.fetchUserInfo(config, tokens.access_token, sub)).rejects.toBeDefined();
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: false });
    // Offline access (offline_access) outlives the session (Back-Channel Logout 1.0 §2.7).
    const offline = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await client.fetchUserInfo(config, offline.access_token, sub)).sub).toBe(sub);
  });
});

/** The next-auth app, registered as a client of the tenant (first-party: no consent page) once per file. */
async function nextAuthApp(): Promise<NextAuthApp> {
  if (nextAuth) return nextAuth;
  // The app's port is its redirect URI's: start it, then register it.
  const registration: { client?: { client_id: string; client_secret: string } } = {};
  const app = await startNextAuthApp({ issuer, client: () => registration.client! });
  registration.client = await registerClient({
    client_name: "next-auth app",
    redirect_uris: [`${app.url}/api/auth/callback/sesame`],
    first_party: true,
  });
  nextAuth = app;
  return app;
}

/** Starts next-auth's sign-in with Sesame from its own sign-in page; the navigations (redirects included). */
async function signInToNextAuth(page: Page, app: NextAuthApp, signIn: () => Promise<void>) {
  const visited: string[] = [];
  const record = (request: Request) => {
    if (request.isNavigationRequest()) visited.push(request.url());
  };
  page.on("request", record);
  await page.goto(`${app.url}/api/auth/signin`);
  await page.getByRole("button", { name: "Sign in with Sesame" }).click();
  await signIn();
  await page.waitForURL((landed) => landed.href.startsWith(app.url) && !landed.pathname.startsWith("/api/"));
  page.off("request", record);
  // next-auth's own session, from its cookie: the user Sesame's ID token named.
  const session = (await (await page.request.get(`${app.url}/api/auth/session`)).json()) as {
    user?: { email?: string };
  };
  return { visited, session };
}

/** A new browser (its own cookies) with a CDP virtual authenticator. */
async function browserWithPasskeys(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  return { page, cdp, authenticatorId: await addAuthenticator(cdp) };
}

test("a next-auth app signs in with Sesame as its OpenID provider: a passkey sign-up through the hosted login", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const app = await nextAuthApp();
  const { page } = await browserWithPasskeys(browser);
  const email = `next-auth-${Date.now()}@example.com`;
  const auth = page.locator("sesame-auth");

  const { visited, session } = await signInToNextAuth(page, app, async () => {
    await page.waitForURL(/\/hosted\/login\?/);
    await createAccountWithCode(auth, journey.smtp, email);
    await auth.getByRole("button", { name: "Create a passkey" }).click();
  });
  expect(visited.some((seen) => seen.startsWith(`${issuer}/oauth/authorize?`))).toBe(true);
  expect(session.user?.email).toBe(email);
  await page.context().close();
});

test("signed in with Hanko's <hanko-auth>, the next-auth app's sign-in asks for nothing more (single sign-on)", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const app = await nextAuthApp();
  const { page, cdp, authenticatorId } = await browserWithPasskeys(browser);
  const email = `hanko-auth-${Date.now()}@example.com`;
  const auth = page.locator("hanko-auth");

  // Sign up with the unmodified <hanko-auth> on the tenant (passcode, then a passkey): its session cookie.
  await startFlow(page, "login_init", () => page.goto(`${journey.base}/examples/hanko-elements`));
  await startFlow(page, "registration_init", () =>
    auth.getByRole("button", { name: "Create account" }).click(),
  );
  await auth.getByLabel("Email").fill(email);
  await auth.getByRole("button", { name: "Continue" }).click();
  await enterPasscode(journey.smtp, auth, email, 0);
  await auth.getByRole("button", { name: "Create a passkey" }).click();
  await expect.poll(() => hankoEventCount(page, "hanko-session-created")).toBe(1);

  // Only that session can sign the user in now: the passkey's authenticator is gone.
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });

  // The session cookie is SameSite=Strict (Hanko's default), so the authorization request, a navigation
  // from another site, does not carry it: the hosted login finds the session and goes on by itself.
  const { visited, session } = await signInToNextAuth(page, app, async () => undefined);
  expect(visited.some((seen) => seen.startsWith(`${issuer}/oauth/authorize?`))).toBe(true);
  expect(visited.filter((seen) => seen.startsWith(`${issuer}/oauth/interaction/`)).length).toBeGreaterThan(0);
  expect(session.user?.email).toBe(email);
  await page.context().close();
});
