import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, mailedCode } from "./browser-journey";
import { enrol, pageWithAuthenticator, startConsoleServer, type ConsoleServer } from "./console-support";

let server: ConsoleServer;
let adminKey: string;

test.beforeAll(async () => {
  server = await startConsoleServer("console-users");
  const demo = JSON.parse(fs.readFileSync(path.join(server.dataDir, "demo-keys.json"), "utf8")) as {
    keys: { admin: string };
  };
  adminKey = demo.keys.admin;
});
test.afterAll(async () => {
  await server?.stop();
});

/** axe (WCAG 2.2 A/AA) at 1280 and 375 px wide, with a full-page screenshot of each kept as an artefact. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    await expectAccessible(page, `${name} at ${width} px`);
  }
}

test("an owner creates, finds, edits and deletes a user and revokes its session", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await pageWithAuthenticator(context);
  await enrol(page, server.setupUrl, "owner@sesame.test");
  const users = `${server.base}/console/tenants/${server.tenantId}/users`;
  const admin = `${server.base}/t/${server.tenantId}/admin`;

  // The demo tenant has no users yet: the empty state says where they come from.
  await page.goto(users);
  await expect(page.getByText("No users yet")).toBeVisible();

  // Create: a malformed address is refused next to its field, then the user is created.
  await page.getByRole("button", { name: "Create user" }).click();
  const dialog = page.getByRole("dialog", { name: "Create user" });
  await dialog.getByLabel("Primary email").fill("not-an-email");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByText("must be an email address")).toBeVisible();
  await dialog.getByLabel("Primary email").fill("ada@example.test");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("heading", { name: "ada@example.test" })).toBeVisible();
  const userId = /\/users\/([0-9a-f-]{36})$/.exec(page.url())![1]!;

  // Find it by search (kept in the URL), open it from the list.
  await page.goto(users);
  await page.getByLabel("Search").fill("ada@");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=ada%40/);
  // Filters: the user has no passkey.
  await page.getByLabel("Passkey", { exact: true }).selectOption("with");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/passkey=with/);
  await expect(page.getByText("No users match “ada@”")).toBeVisible();
  await page.getByLabel("Passkey", { exact: true }).selectOption("without");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/passkey=without/);
  await check(page, "users-list");
  await page
    .getByRole("row", { name: /ada@example\.test/ })
    .getByRole("link", { name: "ada@example.test" })
    .click();
  await expect(page.getByRole("heading", { name: "ada@example.test" })).toBeVisible();

  // Profile and addresses (issue 29, point 11): the demo tenant has usernames off, so a username is refused
  // at its field, saying so; a name is saved; an address is added, then removed.
  const profile = page.getByRole("form", { name: "Profile" });
  await profile.getByLabel("Username", { exact: true }).fill("no spaces");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByText(/^Usernames are not enabled for this tenant/)).toBeVisible();
  await profile.getByLabel("Username", { exact: true }).fill("");
  await profile.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Profile saved" })).toBeVisible();
  const addEmail = page.getByRole("form", { name: "Add an email address" });
  await addEmail.getByLabel("Add an email address").fill("ada.second@example.test");
  await addEmail.getByRole("button", { name: "Add address" }).click();
  const second = page.getByTestId("email-row").filter({ hasText: "ada.second@example.test" });
  await expect(second).toBeVisible();
  await second.getByRole("button", { name: /Remove/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove address" }).click();
  await expect(second).toHaveCount(0);

  // Metadata: invalid JSON is shown inline and cannot be saved; valid JSON is saved.
  const editor = page.getByRole("textbox", { name: "Public metadata" });
  const save = page.getByRole("button", { name: "Save public metadata" });
  await editor.fill('{"plan": "pro"');
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();
  await expect(editor).toHaveAttribute("aria-invalid", "true");
  await expect(save).toBeDisabled();
  await editor.fill('{"plan": "pro"}');
  await save.click();
  await expect(page.getByTestId("toast").filter({ hasText: "Public metadata saved" })).toBeVisible();
  const metadata = await fetch(`${admin}/users/${userId}/metadata`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  expect(await metadata.json()).toEqual({ public_metadata: { plan: "pro" } });

  // A session started through the admin API (impersonation), revoked in the console.
  const started = await fetch(`${admin}/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      user_id: userId,
      ip_address: "203.0.113.7",
      user_agent: "Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36",
    }),
  });
  expect(started.status).toBe(200);
  const { session_token } = (await started.json()) as { session_token: string };
  const validate = async () =>
    (
      await (
        await fetch(`${server.base}/t/${server.tenantId}/sessions/validate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ session_token }),
        })
      ).json()
    ).is_valid as boolean;
  expect(await validate()).toBe(true);
  await page.reload();
  const row = page.getByTestId("session-row").filter({ hasText: "203.0.113.7" });
  await expect(row).toContainText("Chrome (Windows)");
  await check(page, "user-detail");
  await row.getByRole("button", { name: /Revoke/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke session" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Session revoked" })).toBeVisible();
  await expect(page.getByText("No active sessions")).toBeVisible();
  expect(await validate()).toBe(false);

  // Lock: the user shows as locked here and in the list, and no session can be started for them.
  await page.getByRole("button", { name: "Lock user" }).click();
  await page
    .getByRole("dialog", { name: "Lock this user?" })
    .getByRole("button", { name: "Lock user" })
    .click();
  await expect(page.getByTestId("toast").filter({ hasText: "User locked" })).toBeVisible();
  await expect(page.getByText("locked", { exact: true }).first()).toBeVisible();
  const refused = await fetch(`${admin}/sessions`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ user_id: userId }),
  });
  expect(refused.status).toBe(403);
  // Signing in on the hosted login page (<sesame-auth>) says so in plain words, in English and German
  // (issue 29): the code is right, the account is locked.
  const visitor = await browser.newContext();
  const hostedPage = await visitor.newPage();
  for (const [lang, words] of [
    [
      "en",
      { email: "Email", next: "Continue", code: "Email me a code", heading: "Enter the code we emailed you" },
    ],
    [
      "de",
      {
        email: "E-Mail",
        next: "Weiter",
        code: "Code per E-Mail senden",
        heading: "Code aus der E-Mail eingeben",
      },
    ],
  ] as const) {
    await hostedPage.goto(`${server.base}/t/${server.tenantId}/hosted/login?lang=${lang}`);
    const auth = hostedPage.locator("sesame-auth");
    await auth.getByLabel(words.email, { exact: true }).fill("ada@example.test");
    const mails = server.smtp.received.filter((mail) => mail.to.includes("ada@example.test")).length;
    await auth.getByRole("button", { name: words.next }).click();
    const heading = auth.getByRole("heading", { name: words.heading });
    await expect(heading.or(auth.getByRole("button", { name: words.code }))).toBeVisible();
    if (!(await heading.isVisible())) await auth.getByRole("button", { name: words.code }).click();
    await auth
      .getByRole("textbox", { name: "Code" })
      .fill(await mailedCode(server.smtp, "ada@example.test", mails));
    await auth.getByRole("button", { name: words.next }).click();
    await expect(
      auth.getByText(
        lang === "en"
          ? "This account is locked. Contact the site's support to have it unlocked."
          : "Dieses Konto ist gesperrt. Wenden Sie sich an den Support der Website, um es entsperren zu lassen.",
      ),
    ).toBeVisible();
  }
  await visitor.close();
  await page.getByRole("button", { name: "Unlock user" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "User unlocked" })).toBeVisible();

  // Delete: only once the email is typed.
  await page.getByRole("button", { name: "Delete user" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this user?" });
  await expect(confirm.getByRole("button", { name: "Delete user" })).toBeDisabled();
  await confirm.getByLabel(/to confirm/).fill("ada@example.test");
  await confirm.getByRole("button", { name: "Delete user" }).click();
  await expect(page).toHaveURL(new RegExp(`/users$`));
  await expect(page.getByText("No users yet")).toBeVisible();
  const gone = await fetch(`${admin}/users/${userId}`, { headers: { authorization: `Bearer ${adminKey}` } });
  expect(gone.status).toBe(404);

  // Refused: an unknown user is the not-found page; a signed-out browser is sent to sign in.
  await page.goto(`${users}/${userId}`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const signedOut = await browser.newContext();
  const anonymous = await signedOut.newPage();
  await anonymous.goto(users);
  await expect(anonymous).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await signedOut.close();
  await context.close();
});
