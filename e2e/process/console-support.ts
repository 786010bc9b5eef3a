import { expect, type BrowserContext, type CDPSession, type Page } from "@playwright/test";
import { addAuthenticator, startJourneyServer, type JourneyServer } from "./browser-journey";

/** Sesame on a fresh embedded database, with the console's first-start setup link from its output. */
export interface ConsoleServer extends JourneyServer {
  setupUrl: string;
}

/**
 * `env` (optional) is added to the server's environment (e.g. `SESAME_WEBHOOKS_ALLOW_PRIVATE: "true"` for a
 * receiver on loopback): the server process inherits this process's environment, so it is set only while
 * the server is spawned and restored after.
 */
export async function startConsoleServer(
  name: string,
  env: Record<string, string> = {},
): Promise<ConsoleServer> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  let journey: JourneyServer;
  try {
    journey = await startJourneyServer(name);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const output = await journey.server.waitFor(/\/console\/enroll#[A-Za-z0-9_-]+/);
  const setupUrl = /(http:\/\/\S+\/console\/enroll#[A-Za-z0-9_-]+)/.exec(output)![1]!;
  return { ...journey, setupUrl };
}

/** A page with a CDP virtual platform authenticator (resident keys, user verification). */
export async function pageWithAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  authenticators.set(page, { cdp, id: await addAuthenticator(cdp) });
  return page;
}

const authenticators = new WeakMap<Page, { cdp: CDPSession; id: string }>();

/**
 * Takes the page's virtual authenticator away: the sign-in page's autofill request would otherwise be
 * answered at once, signing the operator in again right after a sign-out.
 */
export async function removeAuthenticator(page: Page): Promise<void> {
  const authenticator = authenticators.get(page);
  if (!authenticator) return;
  await authenticator.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: authenticator.id });
  authenticators.delete(page);
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
