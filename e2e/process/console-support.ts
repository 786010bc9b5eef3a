import { expect, type BrowserContext, type Page } from "@playwright/test";
import { addAuthenticator, startJourneyServer, type JourneyServer } from "./browser-journey";

/** Sesame on a fresh embedded database, with the console's first-start setup link from its output. */
export interface ConsoleServer extends JourneyServer {
  setupUrl: string;
}

export async function startConsoleServer(name: string): Promise<ConsoleServer> {
  const journey = await startJourneyServer(name);
  const output = await journey.server.waitFor(/\/console\/enroll#[A-Za-z0-9_-]+/);
  const setupUrl = /(http:\/\/\S+\/console\/enroll#[A-Za-z0-9_-]+)/.exec(output)![1]!;
  return { ...journey, setupUrl };
}

/** A page with a CDP virtual platform authenticator (resident keys, user verification). */
export async function pageWithAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await addAuthenticator(cdp);
  return page;
}

/** Opens an enrolment (or the setup) link, registers a passkey and lands signed in on the overview. */
export async function enrol(page: Page, url: string, email?: string): Promise<void> {
  await page.goto(url);
  if (email) await page.getByLabel("Your email").fill(email);
  await page.getByRole("button", { name: "Register a passkey" }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

/**
 * Signs in on the sign-in page with the page's passkey. The virtual authenticator answers the
 * conditional-UI (autofill) request by itself; when it has not, the button starts a modal prompt.
 */
export async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/console/sign-in`);
  await Promise.race([
    page.waitForURL(/\/console$/),
    page
      .getByRole("button", { name: "Sign in with a passkey" })
      .click({ timeout: 5_000 })
      .catch(() => undefined),
  ]);
  await expect(page).toHaveURL(/\/console$/);
}
