import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type CDPSession, type Locator, type Page } from "@playwright/test";
import type { RecordedHankoEvent } from "@/app/(examples)/examples/hanko-elements/hanko-elements-demo";
import type { RecordedSesameEvent } from "@/app/(examples)/examples/sesame-elements/sesame-elements-demo";
import { codeIn, startSmtpServer, type TestSmtpServer } from "@/tests/helpers/smtp";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

/** Sesame's server on a fresh embedded database, mailing through an in-process SMTP server. */
export interface JourneyServer {
  base: string;
  tenantId: string;
  dataDir: string;
  smtp: TestSmtpServer;
  server: ServerProcess;
  stop(): Promise<void>;
}

/**
 * Starts the server for a browser journey. Without `tenantArgs` the tenant is the demo tenant seeded at
 * the first start; with them, `sesame tenant create <tenantArgs>` makes the tenant on the data folder
 * before the server starts (one process at a time on an embedded database), with RP ID localhost and
 * this server's origin. `env` adds to the server's environment.
 */
export async function startJourneyServer(
  name: string,
  tenantArgs?: string[],
  env: Record<string, string> = {},
): Promise<JourneyServer> {
  const smtp = await startSmtpServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sesame-${name}-`));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let tenantId: string | undefined;
  if (tenantArgs) {
    const cli = [
      "cli/sesame.ts",
      "tenant",
      "create",
      "--rp-id",
      "localhost",
      "--origin",
      base,
      ...tenantArgs,
    ];
    const output = execFileSync("node_modules/.bin/tsx", [...cli, "--json"], {
      env: { ...process.env, SESAME_DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    tenantId = (JSON.parse(output) as { tenant: { id: string } }).tenant.id;
  }
  const server = startProcess(SERVER, {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SMTP_URL: smtp.url,
    ...(tenantId ? { SESAME_SEED_DEMO: "false" } : {}),
    ...env,
  });
  const stop = async () => {
    await server.stop();
    await smtp.close();
  };
  if (tenantId) {
    await server.waitFor(/Sesame is running at/);
    return { base, tenantId, dataDir, smtp, server, stop };
  }
  await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  // The demo tenant seeded at the first start: RP ID localhost, this server's origin.
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
    tenantId: string;
    rpId: string;
    origins: string[];
  };
  expect(demo).toMatchObject({ rpId: "localhost", origins: [base] });
  return { base, tenantId: demo.tenantId, dataDir, smtp, server, stop };
}

/** A platform authenticator with user verification that answers by itself (CDP virtual authenticator). */
export async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** The code of mail number `after + 1` to `email` (waits for it). */
export async function mailedCode(smtp: TestSmtpServer, email: string, after: number): Promise<string> {
  await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(email)).length).toBe(after + 1);
  const mail = await smtp.mailTo(email);
  return codeIn(mail.parsed.text);
}

/** From `<sesame-auth>`'s login: "Create account", `email`, the code mailed to it (its first mail). */
export async function createAccountWithCode(
  auth: Locator,
  smtp: TestSmtpServer,
  email: string,
): Promise<void> {
  await auth.getByRole("button", { name: "Create account" }).click();
  await expect(auth.getByRole("heading", { name: "Create account" })).toBeVisible();
  await auth.getByLabel("Email").fill(email);
  await auth.getByRole("button", { name: "Continue" }).click();
  await expect(auth.getByRole("heading", { name: "Enter the code we emailed you" })).toBeVisible();
  await auth.getByRole("textbox", { name: "Code" }).fill(await mailedCode(smtp, email, 0));
  await auth.getByRole("button", { name: "Continue" }).click();
}

/** No serious or critical axe violation (WCAG 2.2 A/AA, best practices) on the page or inside `selector`. */
export async function expectAccessible(page: Page, label: string, selector?: string): Promise<void> {
  // Next.js streams a page's metadata after its body for browsers, so wait for the <title> to arrive
  // before axe reads the document (otherwise document-title fails at random).
  if (!selector) await expect(page).toHaveTitle(/\S/);
  const builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
  ]);
  const results = await (selector ? builder.include(selector) : builder).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
  expect(severe, `axe on ${label}`).toEqual([]);
}

export interface SessionValidation {
  is_valid: boolean;
  claims?: { subject?: string; amr?: string[]; email?: { address?: string } };
}

/** `GET {tenant_url}/sessions/validate` from the page, with its (HttpOnly) session cookie. */
export const sessionOf = (page: Page, tenantId: string) =>
  page.evaluate(async (url) => {
    const res = await fetch(url, { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as SessionValidation;
  }, `/t/${tenantId}/sessions/validate`);

/** The signed-in user's passkeys (`GET {tenant_url}/webauthn/credentials`). */
export const passkeysOf = (page: Page, tenantId: string) =>
  page.evaluate(async (url) => {
    const res = await fetch(url, { credentials: "same-origin" });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as { id: string; name?: string | null }[];
  }, `/t/${tenantId}/webauthn/credentials`);

/** A page in a browser context of its own (no cookies, no storage): a second device. */
export async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** How many `type` events the hanko-elements demo page has recorded since it loaded. */
export const hankoEventCount = (page: Page, type: string) =>
  page.evaluate(
    (wanted) =>
      ((window as { __hankoEvents?: RecordedHankoEvent[] }).__hankoEvents ?? []).filter(
        (event) => event.type === wanted,
      ).length,
    type,
  );

/** The flow states <hanko-auth> on the hanko-elements demo page has reached since it loaded. */
export const statesSeen = (page: Page) =>
  page.evaluate(() =>
    (window.__hankoEvents ?? [])
      .filter((event) => event.type === "hanko-after-state-change")
      .map((event) => String(event.detail)),
  );

/**
 * Runs `start` (which makes Hanko's element start a flow) and waits until that flow has settled in state
 * `name`. Hanko's element dispatches a new flow's first state twice: at once, and again 500 ms later (a
 * `setTimeout` in its init), which repaints that first page. A user takes longer than that; a test that
 * acts sooner loses its step.
 */
export async function startFlow(page: Page, name: string, start: () => Promise<unknown>): Promise<void> {
  const before = (await statesSeen(page)).length;
  await start();
  await expect
    .poll(async () => (await statesSeen(page)).slice(before).filter((state) => state === name).length)
    .toBeGreaterThanOrEqual(2);
}

/** Types the newest passcode mailed to `email` into Hanko's element's six digit fields. */
export async function enterPasscode(
  smtp: TestSmtpServer,
  element: Locator,
  email: string,
  after: number,
): Promise<void> {
  await expect(element.getByRole("heading", { name: "Enter passcode" })).toBeVisible();
  const code = await mailedCode(smtp, email, after);
  // One digit per box (the element re-renders them while its resend countdown runs, so each is looked up
  // again); it submits once all six are in.
  for (const [index, digit] of [...code].entries()) {
    await element.getByLabel(`passcode-digit-${index + 1}`).fill(digit);
  }
}

/** The sesame-elements demo page's recorded events of one type (`sesame-auth-success` …), with details. */
export const sesameEventsOf = (page: Page, type: string) =>
  page.evaluate(
    (wanted) => (window.__sesameEvents ?? []).filter((event: RecordedSesameEvent) => event.type === wanted),
    type,
  );
