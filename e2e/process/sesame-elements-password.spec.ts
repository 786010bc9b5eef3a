import { expect, test, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { createAccountWithCode, startJourneyServer, type JourneyServer } from "./browser-journey";

/**
 * The elements on a tenant with passwords and without passkeys: sign up with a code and a password, set
 * up an authenticator app in <sesame-profile>, log out, log in with the password and the app's code.
 */

let journey: JourneyServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  journey = await startJourneyServer("sesame-elements-password", [
    "--name",
    "Passwords",
    "--password-enabled",
    "true",
    "--passkeys-enabled",
    "false",
  ]);
});

test.afterAll(async () => {
  await journey?.stop();
});

const demo = (query = "") => `${journey.base}/examples/sesame-elements?tenant=${journey.tenantId}${query}`;

const eventsOf = (page: Page, type: string) =>
  page.evaluate((wanted) => (window.__sesameEvents ?? []).filter((event) => event.type === wanted), type);

test("passwords and an authenticator app: sign up, set up the app, log in with both factors", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `password-${Date.now()}@example.com`;
  const password = "correct horse battery staple";
  const auth = page.locator("sesame-auth");
  const profile = page.locator("sesame-profile");

  await page.goto(demo());
  await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
  // No passkeys on this tenant: no passkey button.
  await expect(auth.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);

  await createAccountWithCode(auth, journey.smtp, email);
  await expect(auth.getByRole("heading", { name: "Choose a password" })).toBeVisible();
  // Too short first: the error sits on the field.
  await auth.getByLabel("New password").fill("short");
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByLabel("New password")).toHaveAttribute("aria-invalid", "true");
  await auth.getByLabel("New password").fill(password);
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByRole("heading", { name: "You are signed in" })).toBeVisible();
  const [signedUp] = await eventsOf(page, "sesame-auth-success");
  expect(signedUp?.detail).toMatchObject({ flow: "registration", method: "pwd" });
  const userId = (signedUp?.detail as { userId: string }).userId;

  // The profile: set up an authenticator app with the secret it shows.
  await page.getByRole("link", { name: "<sesame-profile>" }).click();
  await profile.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(profile.getByRole("heading", { name: "Set up an authenticator app" })).toBeVisible();
  await expect(profile.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
  const text = await profile.getByText(/enter the secret/).innerText();
  const secret = /secret ([A-Z2-7]+)/.exec(text)?.[1];
  expect(secret).toBeDefined();
  const app = new TOTP({ secret: Secret.fromBase32(secret!), digits: 6, period: 30, algorithm: "SHA1" });
  const setupCode = app.generate();
  await profile.getByRole("textbox", { name: "Code" }).fill(setupCode);
  await profile.getByRole("button", { name: "Continue" }).click();
  await expect(profile.getByText("An authenticator app is set up.")).toBeVisible();

  // Log out; log in with the password, then the app's code.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByRole("link", { name: "<sesame-auth>" }).click();
  await expect(auth.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await auth.getByLabel("Email").fill(email);
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByRole("heading", { name: "Choose how to sign in" })).toBeVisible();
  await auth.getByRole("button", { name: "Sign in with a password" }).click();
  await auth.getByLabel("Password", { exact: true }).fill("wrong password");
  await auth.getByRole("button", { name: "Sign in" }).click();
  await expect(auth.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await auth.getByLabel("Password", { exact: true }).fill(password);
  await auth.getByRole("button", { name: "Sign in" }).click();
  await expect(
    auth.getByRole("heading", { name: "Enter the code from your authenticator app" }),
  ).toBeVisible();
  // The code typed at setup counts as used (no replay): it is refused on the field.
  await auth.getByRole("textbox", { name: "Code" }).fill(setupCode);
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByText("The code was used already")).toBeVisible();
  // The app's next code (one step ahead is within the accepted window).
  await auth.getByRole("textbox", { name: "Code" }).fill(app.generate({ timestamp: Date.now() + 30_000 }));
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByRole("heading", { name: "You are signed in" })).toBeVisible();
  const successes = await eventsOf(page, "sesame-auth-success");
  expect(successes.at(-1)?.detail).toMatchObject({ flow: "login", userId, method: "pwd" });
  expect((successes.at(-1)?.detail as { claims: { amr: string[] } }).claims.amr).toEqual(["pwd", "totp"]);
});
