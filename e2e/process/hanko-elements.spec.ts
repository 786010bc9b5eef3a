import { expect, test, type Page } from "@playwright/test";
import {
  hankoEventCount,
  addAuthenticator,
  enterPasscode,
  startFlow,
  statesSeen,
  passkeysOf,
  sessionOf,
  startJourneyServer,
  type JourneyServer,
  type SessionValidation,
} from "./browser-journey";

/**
 * The real client: Hanko's own, unmodified `@teamhanko/hanko-elements` 2.7.0 bundle on
 * /examples/hanko-elements, with `api` set to the tenant URL, driven in Chromium with a CDP virtual
 * authenticator; passcodes come from an SMTP server in this process. Sign up (passcode + passkey), log
 * out, log in with the passkey, log in with a passcode, and add, rename and delete a passkey in
 * <hanko-profile>.
 */

let journey: JourneyServer;
let base = "";
let tenantId = "";

test.beforeAll(async () => {
  test.setTimeout(60_000);
  journey = await startJourneyServer("hanko-elements");
  ({ base, tenantId } = journey);
});

test.afterEach(async ({ page }, info) => {
  // On failure, the element's path through the flows says more than a screenshot.
  if (info.status !== info.expectedStatus) {
    // eslint-disable-next-line no-console -- the test report shows it next to the failure
    console.log("flow states seen:", (await statesSeen(page).catch(() => [])).join(" → "));
  }
});

test.afterAll(async () => {
  await journey?.stop();
});

const validateSession = (page: Page) => sessionOf(page, tenantId);
const listPasskeys = (page: Page) => passkeysOf(page, tenantId);

/** Expects the `count`-th `hanko-session-created` and a valid session for `userId` (when known). */
async function expectSignedIn(page: Page, count: number, userId?: string): Promise<SessionValidation> {
  await expect.poll(() => hankoEventCount(page, "hanko-session-created")).toBe(count);
  const body = await validateSession(page);
  expect(body.is_valid).toBe(true);
  expect(body.claims?.subject).toMatch(/^[0-9a-f-]{36}$/);
  if (userId) expect(body.claims?.subject).toBe(userId);
  return body;
}

/** Logs out with the SDK (`hanko.logout()`) and expects the session to be gone. */
async function logOut(page: Page, count: number): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("status")).toHaveText("Logged out");
  await expect.poll(() => hankoEventCount(page, "hanko-user-logged-out")).toBe(count);
  expect((await validateSession(page)).is_valid).toBe(false);
}

test("an unmodified <hanko-auth>/<hanko-profile> 2.7.0 signs up, logs in with a passkey and a passcode, and manages passkeys", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const firstDevice = await addAuthenticator(cdp);
  const email = `elements-${Date.now()}@example.com`;
  const auth = page.locator("hanko-auth");
  const profile = page.locator("hanko-profile");

  await test.step("the page loads the bundle, and <hanko-auth> starts a login flow on the tenant URL", async () => {
    const bundle = page.waitForResponse(`${base}/examples/hanko-elements/elements.js`);
    const started = page.waitForResponse(
      (res) => res.url() === `${base}/t/${tenantId}/login` && res.request().method() === "POST",
    );
    const capabilities = page.waitForRequest((req) =>
      req.url().startsWith(`${base}/t/${tenantId}/login?action=register_client_capabilities%40`),
    );
    await startFlow(page, "login_init", () => page.goto(`${base}/examples/hanko-elements`));
    expect((await bundle).headers()["content-type"]).toBe("text/javascript; charset=utf-8");
    const first = await (await started).json();
    expect(first).toMatchObject({ name: "preflight", status: 200 });
    expect(first.actions.register_client_capabilities.href).toMatch(
      /^\/login\?action=register_client_capabilities%40[0-9a-f-]{36}$/,
    );
    const body = (await capabilities).postDataJSON();
    expect(body).toMatchObject({ csrf_token: first.csrf_token, input_data: { webauthn_available: true } });
    await expect(auth.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  });

  let userId = "";
  await test.step("sign up: email, passcode from SMTP, passkey; hanko-session-created", async () => {
    await startFlow(page, "registration_init", () =>
      auth.getByRole("button", { name: "Create account" }).click(),
    );
    await expect(auth.getByRole("heading", { name: "Create account" })).toBeVisible();
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await enterPasscode(journey.smtp, auth, email, 0);
    await expect(auth.getByRole("heading", { name: "Create a passkey" })).toBeVisible();
    await auth.getByRole("button", { name: "Create a passkey" }).click();
    const session = await expectSignedIn(page, 1);
    userId = session.claims!.subject!;
    expect(session.claims?.email?.address).toBe(email);
    const passkeys = await listPasskeys(page);
    expect(passkeys).toHaveLength(1);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: firstDevice });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
  });

  await test.step("log out", async () => {
    // <hanko-auth> starts its current flow again: registration, with a link back to signing in.
    await startFlow(page, "registration_init", () => logOut(page, 1));
    await expect(auth.getByRole("heading", { name: "Create account" })).toBeVisible();
    // Signing in starts the login flow, and with it an autofill request (answered in the next step).
    await startFlow(page, "login_init", () =>
      auth.getByRole("button", { name: "Sign in", exact: true }).click(),
    );
  });

  await test.step("log in with the passkey (autofill: the element's conditional request)", async () => {
    // The element starts a conditional (autofill) request on the sign-in page; the virtual authenticator
    // answers it at once, as a user picking the passkey from the autofill list would.
    const session = await expectSignedIn(page, 2, userId);
    expect(session.claims?.amr).toContain("passkey");
    // From here the authenticator waits for a user who never comes, so the next sign-in uses the code.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: firstDevice,
      enabled: false,
    });
    await startFlow(page, "login_init", () => logOut(page, 2));
  });

  await test.step("log in with a passcode", async () => {
    await expect(auth.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    // The user has a passkey too: the element lets them choose (login_method_chooser); take the code.
    await expect(auth.getByRole("heading", { name: "Select login method" })).toBeVisible();
    await auth.getByRole("button", { name: "Passcode" }).click();
    await enterPasscode(journey.smtp, auth, email, 1);
    const session = await expectSignedIn(page, 3, userId);
    expect(session.claims?.amr).toContain("otp");
  });

  await test.step("<hanko-profile>: add a second passkey, rename it, delete it", async () => {
    await page.getByRole("link", { name: "<hanko-profile>" }).click();
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    // One accordion entry per passkey: a label naming it, opening its Rename and Delete links.
    const entries = profile.locator("label[for^='passkey-edit-dropdown-']");
    await expect(entries).toHaveCount(1);
    const firstName = (await entries.first().innerText()).trim();
    const [original] = await listPasskeys(page);
    expect(original).toBeDefined();

    // A second device: the first one holds a passkey for this user and would be excluded.
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: firstDevice });
    const secondDevice = await addAuthenticator(cdp);
    await profile.locator("label[for='passkey-create-dropdown-0']").click();
    await profile.getByRole("button", { name: "Create a passkey" }).click();
    await expect(entries).toHaveCount(2);
    const passkeys = await listPasskeys(page);
    expect(passkeys).toHaveLength(2);
    const added = passkeys.find((passkey) => passkey.id !== original!.id)!;
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId: secondDevice });
    expect(credentials).toHaveLength(1);

    // Every entry keeps its Rename and Delete buttons in the DOM (collapsed), in the entries' order.
    const position = async (name: string) =>
      (await entries.allInnerTexts()).findIndex((text) => text.trim() === name);
    const addedAt = (await entries.allInnerTexts()).findIndex((text) => text.trim() !== firstName);
    await entries.nth(addedAt).click();
    await profile.getByRole("button", { name: "Rename" }).nth(addedAt).click();
    await expect(profile.getByRole("heading", { name: "Rename passkey" })).toBeVisible();
    await profile.getByPlaceholder("New passkey name").fill("Second laptop");
    await profile.getByRole("button", { name: "Save" }).click();
    const renamed = entries.filter({ hasText: "Second laptop" });
    await expect(renamed).toHaveCount(1);
    expect((await listPasskeys(page)).find((passkey) => passkey.id === added.id)?.name).toBe("Second laptop");

    // Delete asks "yes / no" first.
    await renamed.click();
    await profile
      .getByRole("button", { name: "Delete" })
      .nth(await position("Second laptop"))
      .click();
    await profile.getByRole("button", { name: "yes" }).click();
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toHaveText(firstName);
    expect((await listPasskeys(page)).map((passkey) => passkey.id)).toEqual([original!.id]);
    expect((await validateSession(page)).is_valid).toBe(true);
  });
});
