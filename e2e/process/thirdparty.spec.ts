import fs from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { startOidcPeer, type OidcPeer } from "@/tests/helpers/oidc-peer";
import {
  expectAccessible,
  freshPage,
  hankoEventCount,
  sesameEventsOf,
  sessionOf,
  startJourneyServer,
  type JourneyServer,
} from "./browser-journey";

/**
 * Third-party sign-in in Chromium: panva's oidc-provider in this process stands in for Google (the
 * tenant's `google` provider with an issuer override). Unmodified `<hanko-auth>` 2.7.0 and Sesame's
 * `<sesame-auth>` each sign up (first sign-in) and sign in again (a new browser) through the provider
 * button; the session events fire and `/sessions/validate` accepts the session. `<hanko-profile>` and
 * `<sesame-profile>` disconnect and connect the provider.
 */

let journey: JourneyServer;
let peer: OidcPeer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  peer = await startOidcPeer();
  // The peer is on loopback: the server must be allowed to reach it (as webhooks to a private address).
  journey = await startJourneyServer("thirdparty", undefined, { SESAME_WEBHOOKS_ALLOW_PRIVATE: "true" });
  const demo = JSON.parse(fs.readFileSync(path.join(journey.dataDir, "demo-keys.json"), "utf8")) as {
    keys: { admin: string };
  };
  const res = await fetch(`${journey.base}/t/${journey.tenantId}/admin/thirdparty/providers`, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.keys.admin}`, "content-type": "application/json" },
    body: JSON.stringify({
      kind: "google",
      client_id: peer.clientId,
      client_secret: peer.clientSecret,
      options: { issuer: peer.issuer },
    }),
  });
  expect(res.status, await res.text()).toBe(201);
});

test.afterAll(async () => {
  await journey?.stop();
  await peer?.close();
});

const validateSession = (page: Page) => sessionOf(page, journey.tenantId);

/** Whoever signs in at the provider next. */
function account(name: string) {
  const stamp = `${name}-${Date.now()}`;
  return { sub: `sub-${stamp}`, email: `${stamp}@example.com`, email_verified: true };
}

/** Clicks the provider button and waits until the browser is back on `pageUrl` from the provider. */
async function throughProvider(page: Page, button: Locator, pageUrl: string): Promise<void> {
  const back = page.waitForURL(
    (url) => url.toString().startsWith(pageUrl) && url.searchParams.has("hanko_token"),
  );
  await button.click();
  await back;
}

test("<hanko-auth> 2.7.0 signs up and signs in with the provider; <hanko-profile> disconnects and connects it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const pageUrl = `${journey.base}/examples/hanko-elements`;
  peer.account = account("hanko");
  let userId = "";

  for (const [round, label] of ["sign up", "sign in"].entries()) {
    await test.step(label, async () => {
      const page = await freshPage(browser);
      await page.goto(pageUrl);
      const auth = page.locator("hanko-auth");
      const button = auth.getByRole("button", { name: "Continue with Google" });
      await expect(button).toBeVisible();
      await throughProvider(page, button, pageUrl);
      // The element kept its `thirdparty` state and exchanges the token in it.
      await expect.poll(() => hankoEventCount(page, "hanko-session-created"), { timeout: 15_000 }).toBe(1);
      const session = await validateSession(page);
      expect(session).toMatchObject({ is_valid: true, claims: { amr: ["ext:google"] } });
      expect(session.claims?.email?.address).toBe(peer.account.email);
      if (round === 0) userId = session.claims!.subject!;
      else expect(session.claims?.subject).toBe(userId);
      // The token is gone from the address bar.
      expect(new URL(page.url()).searchParams.has("hanko_token")).toBe(false);
      await page.context().close();
    });
  }
  await test.step("<hanko-profile>: disconnect the provider, then connect it again", async () => {
    const page = await freshPage(browser);
    await page.goto(pageUrl);
    await throughProvider(
      page,
      page.locator("hanko-auth").getByRole("button", { name: "Continue with Google" }),
      pageUrl,
    );
    await expect.poll(() => hankoEventCount(page, "hanko-session-created"), { timeout: 15_000 }).toBe(1);

    const profileUrl = `${pageUrl}?view=profile`;
    await page.goto(profileUrl);
    const profile = page.locator("hanko-profile");
    await expect(profile.getByRole("heading", { name: "Connected accounts" })).toBeVisible();
    // One accordion entry per identity, named by the provider; it opens "Delete connection".
    const entries = profile.locator("label[for^='connected-accounts-']");
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toHaveText("Google");
    await entries.first().click();
    await expect(profile.getByRole("heading", { name: "Delete connection" })).toBeVisible();
    await profile.getByRole("button", { name: "Delete", exact: true }).click();
    const yes = profile.getByRole("button", { name: "yes" });
    if (await yes.isVisible().catch(() => false)) await yes.click();
    await expect(entries).toHaveCount(0);

    // "Connect account" lists the providers not connected; the element keeps its state for the way back.
    await profile.locator("label[for^='connect-account-dropdown']").click();
    await throughProvider(page, profile.getByRole("button", { name: "Google" }), profileUrl);
    await expect(entries).toHaveCount(1);
    const session = await validateSession(page);
    expect(session.is_valid).toBe(true);
    expect(session.claims?.subject).toBe(userId);
    await page.context().close();
  });
});

test("<sesame-auth> signs up and signs in with the provider; <sesame-profile> connects and disconnects it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const pageUrl = `${journey.base}/examples/sesame-elements?tenant=${journey.tenantId}`;
  peer.account = account("sesame");
  let userId = "";

  for (const [round, label] of ["sign up", "sign in"].entries()) {
    await test.step(label, async () => {
      const page = await freshPage(browser);
      await page.goto(pageUrl);
      const auth = page.locator("sesame-auth");
      const button = auth.getByRole("button", { name: "Sign in with Google" });
      await expect(button).toBeVisible();
      if (round === 0) await expectAccessible(page, "login_init with a provider", "sesame-auth");
      await throughProvider(page, button, pageUrl);
      await expect.poll(async () => (await sesameEventsOf(page, "sesame-auth-success")).length).toBe(1);
      const [success] = await sesameEventsOf(page, "sesame-auth-success");
      expect(success!.detail).toMatchObject({ flow: "login", method: "ext:google" });
      await expect(auth.getByRole("heading", { name: "You are signed in" })).toBeVisible();
      const session = await validateSession(page);
      expect(session).toMatchObject({ is_valid: true, claims: { amr: ["ext:google"] } });
      if (round === 0) userId = session.claims!.subject!;
      else expect(session.claims?.subject).toBe(userId);
      expect(new URL(page.url()).searchParams.has("hanko_token")).toBe(false);
      await page.context().close();
    });
  }

  await test.step("an error back from the provider is shown on the login page", async () => {
    const page = await freshPage(browser);
    await page.goto(pageUrl);
    const auth = page.locator("sesame-auth");
    peer.refuseWith = "access_denied";
    try {
      const back = page.waitForURL((url) => url.searchParams.has("error"));
      await auth.getByRole("button", { name: "Sign in with Google" }).click();
      await back;
    } finally {
      peer.refuseWith = undefined;
    }
    await expect(auth.getByRole("alert")).toContainText("cancelled or refused");
    await expectAccessible(page, "login_init with the provider's error", "sesame-auth");
    await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect((await validateSession(page)).is_valid).toBe(false);
    await page.context().close();
  });

  await test.step("<sesame-profile>: a user without the provider connects it, then disconnects it", async () => {
    const page = await freshPage(browser);
    const profileUrl = `${pageUrl}&view=profile`;
    // Sign up with another provider account first (the element on the auth view), then open the profile.
    peer.account = account("profile");
    await page.goto(pageUrl);
    await throughProvider(
      page,
      page.locator("sesame-auth").getByRole("button", { name: "Sign in with Google" }),
      pageUrl,
    );
    await expect.poll(async () => (await sesameEventsOf(page, "sesame-auth-success")).length).toBe(1);

    await page.goto(profileUrl);
    const profile = page.locator("sesame-profile");
    const section = profile.getByRole("region", { name: "Connected accounts" });
    await expect(section.getByText("Google")).toBeVisible();
    await expectAccessible(page, "profile with a connected account", "sesame-profile");
    // Google is connected: nothing left to connect; remove it (the address still signs in with a code).
    await expect(section.getByRole("button", { name: "Connect Google" })).toHaveCount(0);
    await section.getByRole("button", { name: "Disconnect: Google" }).click();
    await expect(section.getByRole("button", { name: "Connect Google" })).toBeVisible();

    // Connect it again: to the provider and back, still the same session.
    const before = await validateSession(page);
    await throughProvider(page, section.getByRole("button", { name: "Connect Google" }), profileUrl);
    await expect(
      profile.getByRole("region", { name: "Connected accounts" }).getByText("Google"),
    ).toBeVisible();
    const after = await validateSession(page);
    expect(after).toMatchObject({ is_valid: true, claims: { subject: before.claims?.subject } });
    await page.context().close();
  });
});
