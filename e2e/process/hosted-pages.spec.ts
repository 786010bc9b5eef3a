import { expect, test, type Page } from "@playwright/test";
import {
  addAuthenticator,
  createAccountWithCode,
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
 * the tenant's origins, axe on every page, the not-found state, no CSP violation anywhere, and a logout that
 * another site can only offer, not perform.
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

/** The same server on another site: 127.0.0.1 and localhost are different sites to the browser. */
const otherSite = () => journey.base.replace("localhost", "127.0.0.1");

/** Every CSP violation the page reports (console messages and `securitypolicyviolation` events). */
async function cspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      // eslint-disable-next-line no-console -- reported to the test through the console
      console.error(`csp-violation: ${event.effectiveDirective} ${event.blockedURI}`),
    ),
  );
  page.on("console", (message) => {
    if (/Content Security Policy|csp-violation/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Signs up `email` on the hosted login page already open: a mailed code, then a passkey. */
async function signUpHere(page: Page, email: string) {
  const auth = page.locator("sesame-auth");
  await createAccountWithCode(auth, journey.smtp, email);
  // The passkey step says what a passkey is; the demo tenant requires one, so there is no "Skip".
  await expect(auth.getByText(/A passkey signs you in with your fingerprint/)).toBeVisible();
  await expect(auth.getByRole("button", { name: "Skip" })).toHaveCount(0);
  await auth.getByRole("button", { name: "Create a passkey" }).click();
}

test("the hosted pages sign up, sign out, sign in with autofill and with a code, manage passkeys, and redirect only to the tenant's origins", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const violations = await cspViolations(page);
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
    await signUpHere(page, email);
    await page.waitForURL(allowed);
    expect(await sessionValid(page)).toBe(true);
  });

  await test.step("the hosted profile shows the passkey; its sign-out link signs out at once", async () => {
    const response = await page.goto(hosted("profile"));
    // Never inside another site's frame (the profile can delete the account).
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(response?.headers()["x-frame-options"]).toBe("DENY");
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    await expect(profile.locator("li[data-credential-id]")).toHaveCount(1);
    await expectAccessible(page, "hosted profile");
    // A same-origin navigation: no question asked.
    await page.getByRole("link", { name: "Sign out" }).click();
    await page.waitForURL(hosted("logout"));
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

  await test.step("a session revoked while the profile is open leads to the login and back (issue 29, bug 2)", async () => {
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    // Ended on the server (as an admin's revocation or another tab would), the browser keeps its cookie.
    const cookies = await page.context().cookies();
    const revoked = await page.request.post(`${journey.base}/t/${journey.tenantId}/logout`, {
      headers: { origin: journey.base },
    });
    expect(revoked.status(), await revoked.text()).toBe(204);
    await page.context().addCookies(cookies);
    const detour = page.waitForURL(/\/hosted\/login\?redirect_to=/);
    const item = profile.locator("li[data-credential-id]").first();
    await item.getByRole("button", { name: /^Rename/ }).click();
    await item.getByLabel("New name").fill("After revocation");
    await item.getByRole("button", { name: "Save" }).click();
    await detour;
    await auth.getByLabel("Email").fill(email);
    await auth.getByRole("button", { name: "Continue" }).click();
    await auth.getByRole("button", { name: "Email me a code" }).click();
    await auth.getByRole("textbox", { name: "Code" }).fill(await mailedCode(journey.smtp, email, 2));
    await auth.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(hosted("profile"));
    await expect(profile.getByRole("heading", { name: "Passkeys" })).toBeVisible();
  });

  await test.step("the hosted profile adds, renames and deletes a passkey", async () => {
    const items = profile.locator("li[data-credential-id]");
    await expect(items).toHaveCount(1);
    // The device already holds this account's passkey (excludeCredentials): said so, not "cancelled".
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", {
      authenticatorId: firstDevice,
      enabled: true,
    });
    await profile.getByRole("button", { name: "Create a passkey" }).click();
    await expect(profile.getByText(/already holds a passkey for your account/)).toBeVisible();
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

  expect(violations, "CSP violations on the hosted pages").toEqual([]);
});

test("security 9: a cross-site navigation to the hosted logout asks for a click", async ({ page }) => {
  test.setTimeout(90_000);
  const logout = hosted("logout");
  const state = async (headers: Record<string, string>) => {
    const html = await (await fetch(logout, { headers })).text();
    return /data-hosted-state="(\w[\w-]*)"/.exec(html)?.[1];
  };

  await test.step("over HTTP: on load only from Sesame's own origin or typed; else the question", async () => {
    expect(await state({ "sec-fetch-site": "same-origin" })).toBe("loading");
    expect(await state({ "sec-fetch-site": "none" })).toBe("loading");
    expect(await state({ "sec-fetch-site": "cross-site" })).toBe("confirm");
    expect(await state({ "sec-fetch-site": "same-site" })).toBe("confirm");
    expect(await state({ "sec-fetch-site": "cross-site", referer: hosted("profile") })).toBe("confirm");
    // Without Sec-Fetch-Site the Referer decides: Sesame's public origin (SESAME_BASE_URL) or nothing.
    expect(await state({ referer: hosted("profile") })).toBe("loading");
    expect(await state({ referer: `${otherSite()}/` })).toBe("confirm");
    expect(await state({ referer: "https://evil.example/" })).toBe("confirm");
    expect(await state({})).toBe("confirm");
  });

  await test.step("in the browser: a link from another site keeps the session until the click", async () => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await addAuthenticator(cdp);
    const email = `hosted-cross-site-${Date.now()}@example.com`;
    await page.goto(hosted("login"));
    await signUpHere(page, email);
    await page.waitForURL(hosted("profile"));
    expect(await sessionValid(page)).toBe(true);

    // Another site (127.0.0.1) sends the browser to the logout page (its Sec-Fetch-Site is cross-site).
    await page.goto(`${otherSite()}/livez`);
    await page.evaluate((url) => window.location.assign(url), logout);
    await page.waitForURL(logout);
    const section = page.locator("[data-hosted-view=logout]");
    const signOut = section.getByRole("button", { name: "Sign out" });
    await expect(signOut).toBeVisible();
    await expect(section.getByText("Do you want to sign out?")).toBeVisible();
    await expectAccessible(page, "hosted logout (asks first)");
    // Give a page that signed out on load every chance to have done so: the session is still there.
    await page.waitForLoadState("networkidle");
    expect(await sessionValid(page)).toBe(true);

    await signOut.click();
    await expect(page.getByText("You are signed out.")).toBeVisible();
    expect(await sessionValid(page)).toBe(false);
  });

  await test.step("German: the question and the button", async () => {
    await page.goto(`${otherSite()}/livez`);
    await page.evaluate((url) => window.location.assign(url), hosted("logout", "?lang=de"));
    await expect(page.getByRole("button", { name: "Abmelden" })).toBeVisible();
    await expect(page.getByText("Möchten Sie sich abmelden?")).toBeVisible();
  });
});

test("security 13: hosted pages send a nonce-based script CSP", async ({ page }) => {
  const nonces: string[] = [];
  const unknownTenant = `${journey.base}/t/00000000-0000-4000-8000-000000000000/hosted/login`;

  await test.step("over HTTP: a fresh nonce per response, on every script of the page", async () => {
    for (const url of [
      hosted("login"),
      hosted("login"),
      hosted("profile"),
      hosted("logout"),
      unknownTenant,
    ]) {
      const response = await fetch(url, { headers: { "sec-fetch-site": "cross-site" } });
      const policy = response.headers.get("content-security-policy") ?? "";
      const directives = new Map(
        policy.split(";").map((part) => {
          const [name = "", ...values] = part.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      const scriptSrc = directives.get("script-src") ?? [];
      const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(
        scriptSrc.find((v) => v.startsWith("'nonce-")) ?? "",
      )?.[1];
      expect(nonce, `${url}: ${policy}`).toBeDefined();
      expect(scriptSrc).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
      expect(directives.get("object-src")).toEqual(["'none'"]);
      expect(directives.get("base-uri")).toEqual(["'none'"]);
      expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      const scripts = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(` nonce="${nonce}"`);
      nonces.push(nonce!);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  await test.step("in the browser: the pages run without a violation; a script without the nonce does not", async () => {
    const violations = await cspViolations(page);
    await page.goto(hosted("login"));
    await expect(page.locator("sesame-auth").getByRole("heading", { name: "Sign in" })).toBeVisible();
    await page.goto(hosted("logout"));
    await expect(page.getByText("You are signed out.")).toBeVisible();
    expect(violations).toEqual([]);

    // Markup injected into the page (as an XSS would) runs no script: it cannot know the nonce.
    await page.route(hosted("login"), async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace("<body", "<script>window.injected = true</script><body");
      await route.fulfill({ response, body });
    });
    await page.goto(hosted("login"));
    await expect(page.locator("sesame-auth").getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(await page.evaluate(() => "injected" in window), "an inline script without the nonce ran").toBe(
      false,
    );
    expect(violations.join("\n")).toMatch(/script-src/);
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

test("an OpenID Connect login_hint prefills the login's identifier", async ({ page }) => {
  await page.goto(hosted("login", "?login_hint=ada%40example.com"));
  await expect(page.locator("sesame-auth").getByLabel("Email")).toHaveValue("ada@example.com");
});
