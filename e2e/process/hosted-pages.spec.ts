import { expect, test, type Page } from "@playwright/test";
import {
  addAuthenticator,
  expectAccessible,
  mailedCode,
  passkeysOf,
  sessionOf,
  startJourneyServer,
  type JourneyServer,
} from "./browser-journey";

/**
 * The hosted pages of the demo tenant (/t/{tenant_id}/hosted/login|profile|logout) in Chromium with a CDP
 * virtual authenticator and an in-process SMTP server: the same journey as the elements, redirects only to
 * the tenant's origins, axe on every page, the not-found state.
 */

let journey: JourneyServer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  journey = await startJourneyServer("hosted-pages");
});

test.afterAll(async () => {
  await journey?.stop();
});

const hosted = (page: "login" | "profile" | "logout", query = "") =>
  `${journey.base}/t/${journey.tenantId}/hosted/${page}${query}`;
const redirectTo = (target: string) => `?redirect_to=${encodeURIComponent(target)}`;

const listPasskeys = (page: Page) => passkeysOf(page, journey.tenantId);
const sessionValid = async (page: Page) => (await sessionOf(page, journey.tenantId)).is_valid;

test("the hosted pages sign up, sign out, sign in with autofill and with a code, manage passkeys, and redirect only to the tenant's origins", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const firstDevice = await addAuthenticator(cdp);
  const email = `hosted-${Date.now()}@example.com`;
  const auth = page.locator("sesame-auth");
  const profile = page.locator("sesame-profile");
  // An allowed target: the tenant's own origin (the demo tenant's origin is this server).
  const allowed = `${journey.base}/examples/passkeys`;

  await test.step("sign up on the hosted login page; then to the allowed redirect_to", async () => {
    await page.goto(hosted("login", redirectTo(allowed)));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expectAccessible(page, "hosted login");
    await auth.getByRole("button", { name: "Create account" }).click();
    await expect(auth.getByRole("heading", { name: "Create account" })).toBeVisible();
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await expect(auth.getByRole("heading", { name: "Enter the code we emailed you" })).toBeVisible();
    await auth.getByRole("textbox", { name: "Code" }).fill(await mailedCode(journey.smtp, email, 0));
    await auth.getByRole("button", { name: "Continue" }).click();
    await auth.getByRole("button", { name: "Create a passkey" }).click();
    await page.waitForURL(allowed);
    expect(await sessionValid(page)).toBe(true);
  });

  await test.step("the hosted profile shows the passkey; the logout page signs out", async () => {
    const response = await page.goto(hosted("profile"));
    // Never inside another site's frame (the profile can delete the account).
    expect(response?.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    await expect(profile.locator("li[data-credential-id]")).toHaveCount(1);
    await expectAccessible(page, "hosted profile");
    await page.goto(hosted("logout"));
    await expect(page.getByText("You are signed out.")).toBeVisible();
    await expectAccessible(page, "hosted logout");
    expect(await sessionValid(page)).toBe(false);
  });

  await test.step("the profile without a session sends the user to the login, which returns to the profile (autofill)", async () => {
    const detour = page.waitForURL(/\/hosted\/login\?redirect_to=/);
    await page.goto(hosted("profile"));
    // Redirected to the login with redirect_to back to the profile; the passkey autofill signs in.
    await detour;
    await page.waitForURL(hosted("profile"));
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    expect(await sessionValid(page)).toBe(true);
  });

  await test.step("an open redirect attempt lands on the safe default after a code login", async () => {
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: firstDevice,
      enabled: false,
    });
    await page.goto(hosted("logout", redirectTo("https://evil.example/phish")));
    await expect(page.getByText("You are signed out.")).toBeVisible();
    expect(page.url()).toBe(hosted("logout", redirectTo("https://evil.example/phish")));

    await page.goto(hosted("login", redirectTo("https://evil.example/phish")));
    await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await auth.getByRole("button", { name: "Email me a code" }).click();
    await expect(auth.getByRole("heading", { name: "Enter the code we emailed you" })).toBeVisible();
    await auth.getByRole("textbox", { name: "Code" }).fill(await mailedCode(journey.smtp, email, 1));
    await auth.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(hosted("profile"));
    expect(await sessionValid(page)).toBe(true);
  });

  await test.step("the hosted profile adds, renames and deletes a passkey", async () => {
    const items = profile.locator("li[data-credential-id]");
    await expect(items).toHaveCount(1);
    const [original] = await listPasskeys(page);
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: firstDevice });
    await addAuthenticator(cdp);
    await profile.getByRole("button", { name: "Create a passkey" }).click();
    await expect(items).toHaveCount(2);
    const added = (await listPasskeys(page)).find((passkey) => passkey.id !== original!.id)!;
    const item = profile.locator(`li[data-credential-id="${added.id}"]`);
    await item.getByRole("button", { name: /^Rename/ }).click();
    await item.getByLabel("New name").fill("Hosted laptop");
    await item.getByRole("button", { name: "Save" }).click();
    await expect(item).toContainText("Hosted laptop");
    await item.getByRole("button", { name: "Delete: Hosted laptop" }).click();
    await expect(items).toHaveCount(1);
    expect((await listPasskeys(page)).map((passkey) => passkey.id)).toEqual([original!.id]);
  });

  await test.step("logout with an allowed redirect_to goes there", async () => {
    await page.goto(hosted("logout", redirectTo(allowed)));
    await page.waitForURL(allowed);
    expect(await sessionValid(page)).toBe(false);
  });
});

test("unknown tenants get the not-found page with a 404; German via ?lang=de", async ({ page }) => {
  const response = await page.goto(`${journey.base}/t/00000000-0000-4000-8000-000000000000/hosted/login`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "hosted not-found");

  await page.goto(hosted("login", "?lang=de"));
  await expect(page.locator("sesame-auth").getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await expectAccessible(page, "hosted login (de)");
});
