import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./browser-journey";
import { enrol, pageWithAuthenticator, startConsoleServer, type ConsoleServer } from "./console-support";

/**
 * The walk of issue 29: every console page, the hosted pages and the examples index pass axe (WCAG 2.2 A
 * and AA: no serious or critical violation) at 1280 px and 375 px, each in the light and the dark theme,
 * with no sideways scrolling and no console error; each is kept as a screenshot among the test artefacts.
 * One server and one signed-in operator for all of it.
 */
let server: ConsoleServer;
let demo: { tenantId: string; keys: { admin: string } };

test.beforeAll(async () => {
  server = await startConsoleServer("console-a11y");
  demo = JSON.parse(fs.readFileSync(path.join(server.dataDir, "demo-keys.json"), "utf8")) as typeof demo;
});
test.afterAll(async () => {
  await server?.stop();
});

async function admin(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.base}/t/${demo.tenantId}/admin${route}`, {
    method,
    headers: { Authorization: `Bearer ${demo.keys.admin}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${route}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** Console errors of the pages a test opened, with the page they came from. */
const consoleErrors: string[] = [];
function watch(page: Page): Page {
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return page;
}

/**
 * Each page is loaded once and seen in two views: 1280 px in one theme, then (resized in place, no reload)
 * 375 px in the other. Which theme goes with which width alternates from page to page, so across the walk
 * every width meets every theme while each page costs one load and two axe runs, not four of each (the
 * walk has to fit the CI's budget). Colours follow `prefers-color-scheme` in CSS alone, so emulating the
 * scheme restyles the loaded page; sideways scrolling is measured at 375 px in both themes (it is cheap).
 */
const SCHEMES = ["light", "dark"] as const;
let walked = 0;

async function view(page: Page, name: string, width: number, scheme: "light" | "dark"): Promise<void> {
  await page.setViewportSize({ width, height: width > 400 ? 900 : 812 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  if (width <= 400) {
    // No sideways scrolling of the page itself at 375 px (wide tables scroll inside their box).
    for (const each of [scheme, ...SCHEMES.filter((other) => other !== scheme)]) {
      await page.emulateMedia({ colorScheme: each });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width}px (${each}) overflows by ${overflow}px`).toBeLessThanOrEqual(1);
    }
    await page.emulateMedia({ colorScheme: scheme });
  }
  await expectAccessible(page, `${name} at ${width}px (${scheme})`);
  // Kept in test-results/ (the CI's artefacts); docs/console.md shows some of them.
  const file = test.info().outputPath(`${name}-${width}-${scheme}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(`${name}-${width}-${scheme}.png`, { path: file, contentType: "image/png" });
}

async function check(page: Page, name: string, url: string): Promise<void> {
  const [wide, narrow] = walked++ % 2 === 0 ? SCHEMES : ([...SCHEMES].reverse() as ["dark", "light"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: wide });
  await page.goto("about:blank"); // the same URL again would be a same-document navigation
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await expect(page.locator("h1").first()).toBeVisible();
  await view(page, name, 1280, wide);
  await view(page, name, 375, narrow);
}

test("every console page and hosted page is accessible and fits a phone, in light and dark", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const user = await admin("POST", "/users", { emails: [{ address: "ada@example.com", is_primary: true }] });
  await admin("POST", "/thirdparty/providers", {
    kind: "github",
    client_id: "gh-client",
    client_secret: "s3cret-s3cret",
  });
  const context = await browser.newContext();
  const page = watch(await pageWithAuthenticator(context));

  const signedOut = await browser.newContext();
  const visitor = watch(await signedOut.newPage());
  await check(visitor, "sign-in", `${server.base}/console/sign-in`);
  await check(visitor, "signed-out", `${server.base}/console/sign-in?signed_out=1`);
  await check(visitor, "enroll-invalid", `${server.base}/console/enroll#not-a-valid-token-at-all`);
  const hosted = `${server.base}/t/${demo.tenantId}/hosted`;
  await check(visitor, "hosted-login", `${hosted}/login`);
  await check(visitor, "hosted-login-de", `${hosted}/login?lang=de`);
  await check(visitor, "hosted-logout", `${hosted}/logout`);
  await check(visitor, "examples", `${server.base}/examples`);
  // The docs' overview (issue 29, point 12): no CSP error in the console either (checked at the end).
  await check(visitor, "docs", `${server.base}/docs`);
  await signedOut.close();

  await enrol(page, server.setupUrl, "owner@sesame.test");
  const tenant = `${server.base}/console/tenants/${demo.tenantId}`;
  const pages: [string, string][] = [
    ["overview", `${server.base}/console`],
    ["tenants", `${server.base}/console/tenants`],
    ["tenant-new", `${server.base}/console/tenants/new`],
    ["tenant-overview", `${tenant}/overview`],
    ["tenant-settings", tenant],
    ["keys", `${tenant}/keys`],
    ["users", `${tenant}/users`],
    ["user", `${tenant}/users/${String(user.id)}`],
    ["sign-in-providers", `${tenant}/sign-in`],
    ["webhooks", `${tenant}/webhooks`],
    ["audit", `${tenant}/audit`],
    ["analytics", `${tenant}/analytics`],
    ["operators", `${server.base}/console/operators`],
    ["account", `${server.base}/console/account`],
  ];
  for (const [name, url] of pages) await check(page, name, url);
  await context.close();
  expect(consoleErrors, "console errors").toEqual([]);
});
