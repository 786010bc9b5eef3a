import { expect, test, type Locator, type Page } from "@playwright/test";
import type { RecordedSesameEvent } from "@/app/(examples)/examples/sesame-elements/sesame-elements-demo";
import {
  addAuthenticator,
  expectAccessible as axe,
  mailedCode,
  passkeysOf,
  sessionOf,
  startJourneyServer,
  type JourneyServer,
} from "./browser-journey";

/**
 * Sesame's own elements (/elements/v1/sesame-elements.js) on /examples/sesame-elements, in Chromium with
 * a CDP virtual authenticator; codes come from an SMTP server in this process. Sign up (code + passkey),
 * log out, log in with passkey autofill and with a code, manage passkeys in <sesame-profile>; every
 * event and its detail; axe on every state; German; the light-DOM mode.
 */

let journey: JourneyServer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  journey = await startJourneyServer("sesame-elements");
});

test.afterAll(async () => {
  await journey?.stop();
});

const page_ = (query = "") => `${journey.base}/examples/sesame-elements?tenant=${journey.tenantId}${query}`;

/** The recorded events of one type (`sesame-auth-success` …), with their details. */
const eventsOf = (page: Page, type: string) =>
  page.evaluate(
    (wanted) => (window.__sesameEvents ?? []).filter((event: RecordedSesameEvent) => event.type === wanted),
    type,
  );

const validateSession = (page: Page) => sessionOf(page, journey.tenantId);
const listPasskeys = (page: Page) => passkeysOf(page, journey.tenantId);
const expectAccessible = (page: Page, selector: string, label: string) => axe(page, label, selector);

/** Waits for the n-th event of `type` and answers its detail. */
async function nthEvent<T>(page: Page, type: string, n: number): Promise<T> {
  await expect.poll(async () => (await eventsOf(page, type)).length).toBe(n);
  return (await eventsOf(page, type))[n - 1]!.detail as T;
}

interface AuthSuccess {
  flow: string;
  userId: string;
  method: string | null;
  claims: { subject: string; expiration: string; email?: { address: string }; amr?: string[] };
}

async function enterCode(page: Page, element: Locator, email: string, after: number): Promise<void> {
  await expect(element.getByRole("heading", { name: "Enter the code we emailed you" })).toBeVisible();
  await expectAccessible(page, "sesame-auth", "passcode_confirmation");
  const code = await mailedCode(journey.smtp, email, after);
  const field = element.getByRole("textbox", { name: "Code" });
  await expect(field).toHaveAttribute("autocomplete", "one-time-code");
  await field.fill(code);
  await element.getByRole("button", { name: "Continue" }).click();
}

test("<sesame-auth> signs up with a code and a passkey, logs in with autofill and with a code; <sesame-profile> manages passkeys", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const firstDevice = await addAuthenticator(cdp);
  const email = `elements-${Date.now()}@example.com`;
  const auth = page.locator("sesame-auth");
  const profile = page.locator("sesame-profile");

  await test.step("the bundle loads and <sesame-auth> shows the login page with autofill", async () => {
    const bundle = page.waitForResponse(`${journey.base}/elements/v1/sesame-elements.js`);
    await page.goto(page_());
    expect((await bundle).headers()["content-type"]).toBe("text/javascript; charset=utf-8");
    await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
    // The identifier field offers passkeys in the browser's suggestions.
    await expect(auth.getByLabel("Email")).toHaveAttribute("autocomplete", "username webauthn");
    await expectAccessible(page, "sesame-auth", "login_init");
  });

  let userId = "";
  await test.step("sign up: email, code from SMTP, passkey; auth-success and registration events", async () => {
    await auth.getByRole("button", { name: "Create account" }).click();
    await expect(auth.getByRole("heading", { name: "Create account" })).toBeVisible();
    await expectAccessible(page, "sesame-auth", "registration_init");
    // A wrong address first: the error is on the field, announced, and nothing is sent.
    await auth.getByLabel("Email").fill("not an address");
    await auth.getByRole("button", { name: "Continue" }).click();
    await expect(auth.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect((await nthEvent<{ code: string; state: string }>(page, "sesame-auth-error", 1)).state).toBe(
      "registration_init",
    );
    await expectAccessible(page, "sesame-auth", "registration_init with an error");
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await enterCode(page, auth, email, 0);
    await expect(auth.getByRole("heading", { name: "Create a passkey" })).toBeVisible();
    await expectAccessible(page, "sesame-auth", "onboarding_create_passkey");
    await auth.getByRole("button", { name: "Create a passkey" }).click();

    const success = await nthEvent<AuthSuccess>(page, "sesame-auth-success", 1);
    expect(success).toMatchObject({ flow: "registration", claims: { email: { address: email } } });
    expect(success.userId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(success.claims.expiration)).toBeGreaterThan(Date.now());
    userId = success.userId;
    expect(await nthEvent(page, "sesame-registration", 1)).toEqual({ userId });
    await expect(auth.getByRole("heading", { name: "You are signed in" })).toBeVisible();
    await expectAccessible(page, "sesame-auth", "success");
    expect(await validateSession(page)).toMatchObject({ is_valid: true, claims: { subject: userId } });
    expect(await listPasskeys(page)).toHaveLength(1);
  });

  await test.step("log out: the logout event, and the element is back at the login page", async () => {
    // The next login page starts an autofill request, which this authenticator answers at once.
    await page.getByRole("button", { name: "Log out" }).click();
    expect(await nthEvent(page, "sesame-logout", 1)).toEqual({ userId });
  });

  await test.step("log in with passkey autofill (conditional mediation)", async () => {
    const success = await nthEvent<AuthSuccess>(page, "sesame-auth-success", 2);
    expect(success).toMatchObject({ flow: "login", userId, method: "passkey" });
    expect(await nthEvent(page, "sesame-login", 1)).toEqual({ userId, method: "passkey" });
    expect(await validateSession(page)).toMatchObject({ is_valid: true, claims: { subject: userId } });
    // From here the authenticator waits for a user who never comes: the next login uses a code.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: firstDevice,
      enabled: false,
    });
    await page.getByRole("button", { name: "Log out" }).click();
    expect(await nthEvent(page, "sesame-logout", 2)).toEqual({ userId });
    expect((await validateSession(page)).is_valid).toBe(false);
  });

  await test.step("log in with a code (the autofill request is cancelled first)", async () => {
    await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await expect(auth.getByRole("heading", { name: "Choose how to sign in" })).toBeVisible();
    await expectAccessible(page, "sesame-auth", "login_method_chooser");
    await auth.getByRole("button", { name: "Email me a code" }).click();
    await enterCode(page, auth, email, 1);
    const success = await nthEvent<AuthSuccess>(page, "sesame-auth-success", 3);
    expect(success).toMatchObject({ flow: "login", userId, method: "otp" });
    expect(await nthEvent(page, "sesame-login", 2)).toEqual({ userId, method: "otp" });
  });

  await test.step("<sesame-profile>: add a second passkey, rename it, delete it", async () => {
    await page.getByRole("link", { name: "<sesame-profile>" }).click();
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    await expectAccessible(page, "sesame-profile", "profile_init");
    const items = profile.locator("li[data-credential-id]");
    await expect(items).toHaveCount(1);
    const [original] = await listPasskeys(page);

    // A second device: the first one holds this user's passkey and would be excluded.
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: firstDevice });
    await addAuthenticator(cdp);
    await profile.getByRole("button", { name: "Create a passkey" }).click();
    await expect(items).toHaveCount(2);
    const added = (await listPasskeys(page)).find((passkey) => passkey.id !== original!.id)!;
    const addedItem = profile.locator(`li[data-credential-id="${added.id}"]`);

    await addedItem.getByRole("button", { name: /^Rename/ }).click();
    await addedItem.getByLabel("New name").fill("Second laptop");
    await expectAccessible(page, "sesame-profile", "profile_init renaming");
    await addedItem.getByRole("button", { name: "Save" }).click();
    await expect(addedItem).toContainText("Second laptop");
    expect((await listPasskeys(page)).find((passkey) => passkey.id === added.id)?.name).toBe("Second laptop");

    await addedItem.getByRole("button", { name: "Delete: Second laptop" }).click();
    await expect(items).toHaveCount(1);
    expect((await listPasskeys(page)).map((passkey) => passkey.id)).toEqual([original!.id]);
    expect((await validateSession(page)).is_valid).toBe(true);
  });
});

test("renders in German with lang=de, and without a shadow root where password managers see the inputs", async ({
  page,
}) => {
  await page.goto(page_("&lang=de&shadow=false"));
  const auth = page.locator("sesame-auth");
  await expect(auth.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await expect(auth.getByRole("button", { name: "Weiter" })).toBeVisible();
  await expect(auth.getByRole("button", { name: "Konto erstellen" })).toBeVisible();
  const dom = await page.evaluate(() => {
    const element = document.querySelector("sesame-auth");
    return {
      shadowRoot: element?.shadowRoot !== null,
      // A plain document query finds the input: it is in the light DOM.
      input: document.querySelector("sesame-auth input[name='email']")?.getAttribute("autocomplete"),
      styled: Boolean(document.getElementById("sesame-elements-style")),
    };
  });
  expect(dom).toEqual({ shadowRoot: false, input: "username webauthn", styled: true });
  await expectAccessible(page, "sesame-auth", "login_init (de, light DOM)");

  await auth.getByRole("button", { name: "Konto erstellen" }).click();
  await expect(auth.getByRole("heading", { name: "Konto erstellen" })).toBeVisible();
  await auth.getByLabel("E-Mail").fill("kein-konto");
  await auth.getByRole("button", { name: "Weiter" }).click();
  await expect(auth.getByText("Dieser Wert ist ungültig.")).toBeVisible();
});

test("<sesame-profile> without a session shows the refusal and fires auth-error", async ({ page }) => {
  await page.goto(page_("&view=profile"));
  const profile = page.locator("sesame-profile");
  await expect(profile.getByRole("alert")).toContainText(/sign in/i);
  const [error] = await eventsOf(page, "sesame-auth-error");
  expect(error?.detail).toMatchObject({ flow: "profile", code: "unauthorized" });
  await expectAccessible(page, "sesame-profile", "profile without a session");
});
