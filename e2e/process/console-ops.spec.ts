import { expect, request, test, type Page, type Request } from "@playwright/test";
import { expectAccessible } from "./browser-journey";
import {
  enrol,
  pageWithAuthenticator,
  removeAuthenticator,
  signIn,
  startConsoleServer,
  type ConsoleServer,
} from "./console-support";

let server: ConsoleServer;

test.beforeAll(async () => {
  server = await startConsoleServer("console-ops");
});
test.afterAll(async () => {
  await server?.stop();
});

/** A server action's request as the browser sent it, minus its cookies (the caller brings its own). */
async function actionRequest(recorded: Request) {
  const headers = Object.fromEntries(
    Object.entries(await recorded.allHeaders()).filter(
      ([name]) => !["cookie", "content-length", "host"].includes(name.toLowerCase()) && !name.startsWith(":"),
    ),
  );
  return { url: recorded.url(), headers, data: recorded.postDataBuffer() ?? Buffer.alloc(0) };
}

const keyRows = (page: Page, name: string) => page.getByTestId("api-key-row").filter({ hasText: name });

test("keys, operators and the operator's account: owner can, viewer sees but is refused on the server", async ({
  browser,
}) => {
  // Three browsers, two enrolments and a dozen pages: ~50 s on a busy two-core machine.
  test.setTimeout(120_000);
  const keysUrl = `${server.base}/console/tenants/${server.tenantId}/keys`;
  const ownerContext = await browser.newContext();
  const owner = await pageWithAuthenticator(ownerContext);
  await enrol(owner, server.setupUrl, "owner@ops.test");

  // An API key: its secret once, then only its prefix.
  await owner.goto(keysUrl);
  await expect(owner.getByRole("heading", { name: "API & signing keys", level: 1 })).toBeVisible();
  await owner.getByRole("button", { name: "Create API key" }).click();
  const create = owner.getByRole("dialog", { name: "Create an API key" });
  await create.getByLabel("Name").fill("e2e backend");
  await expect(create.getByRole("checkbox", { name: /admin/ })).toBeChecked();
  const recording = owner.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await create.getByRole("button", { name: "Create key" }).click();
  const createAction = await actionRequest(await recording);
  const secret = (await owner.getByTestId("secret-value").textContent())!.trim();
  expect(secret).toMatch(/^sesame_admin_[A-Za-z0-9_-]{43}$/);
  const users = `${server.base}/t/${server.tenantId}/admin/users`;
  const bearer = { headers: { Authorization: `Bearer ${secret}` } };
  expect((await ownerContext.request.get(users, bearer)).status()).toBe(200);
  await owner.getByRole("button", { name: "Done" }).click();
  const row = keyRows(owner, "e2e backend");
  await expect(row).toContainText(secret.slice(0, "sesame_admin_".length + 6));
  await expect(owner.getByTestId("secret-value")).toHaveCount(0);
  expect(await owner.content()).not.toContain(secret);
  await owner.reload();
  expect(await owner.content()).not.toContain(secret);

  // Revoke it behind a confirmation: the key stops working.
  await row.getByRole("button", { name: "Revoke e2e backend" }).click();
  await row.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  expect((await ownerContext.request.get(users, bearer)).status()).toBe(401);

  // Rotate the signing key: one more key, the newest active.
  const signing = owner.getByTestId("signing-key-row");
  const before = await signing.count();
  await owner.getByRole("button", { name: "Rotate signing key" }).click();
  await owner
    .getByRole("dialog", { name: "Rotate the signing key?" })
    .getByRole("button", { name: "Rotate", exact: true })
    .click();
  await expect(signing).toHaveCount(before + 1);
  await expect(signing.first()).toContainText("Active");
  await expect(signing.nth(1)).toContainText("Retired");
  await expectAccessible(owner, "keys page");

  // Invite a viewer of the demo tenant; the enrolment link is shown once.
  await owner.goto(`${server.base}/console/operators`);
  await owner.getByRole("button", { name: "Invite operator" }).click();
  const invite = owner.getByRole("dialog", { name: "Invite an operator" });
  await invite.getByLabel("Email").fill("viewer@ops.test");
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("checkbox").first().check();
  await invite.getByRole("button", { name: "Invite", exact: true }).click();
  const link = (await owner.getByTestId("secret-value").textContent())!.trim();
  expect(link).toMatch(/\/console\/enroll#[A-Za-z0-9_-]+$/);
  await owner.getByRole("button", { name: "Done" }).click();
  await expect(owner.getByTestId("operator-row").filter({ hasText: "viewer@ops.test" })).toContainText(
    "viewer",
  );
  await expect(owner.getByTestId("secret-value")).toHaveCount(0);
  expect(await owner.content()).not.toContain(link);
  await expectAccessible(owner, "operators page");

  // The last owner cannot be removed: the domain's refusal is shown.
  const ownerRow = owner.getByTestId("operator-row").filter({ hasText: "owner@ops.test" });
  await ownerRow.getByRole("button", { name: "Remove owner@ops.test" }).click();
  const remove = ownerRow.getByRole("dialog", { name: "Remove owner@ops.test?" });
  await remove.getByLabel(/Type owner@ops.test to confirm/).fill("owner@ops.test");
  await remove.getByRole("button", { name: "Remove operator" }).click();
  await expect(
    owner.getByTestId("toast").filter({ hasText: "the last owner cannot be removed" }),
  ).toBeVisible();
  await expect(owner.getByTestId("operator-row")).toHaveCount(2);

  // A new enrolment link for an operator, shown once; it replaces the unused invitation link.
  const viewerRow = owner.getByTestId("operator-row").filter({ hasText: "viewer@ops.test" });
  await viewerRow.getByRole("button", { name: "New link for viewer@ops.test" }).click();
  await viewerRow.getByRole("dialog").getByRole("button", { name: "Create link" }).click();
  const recovery = (await owner.getByTestId("secret-value").textContent())!.trim();
  expect(recovery).toMatch(/\/console\/enroll#[A-Za-z0-9_-]+$/);
  expect(recovery).not.toBe(link);
  await owner.getByRole("button", { name: "Done" }).click();
  await expect(owner.getByTestId("secret-value")).toHaveCount(0);
  expect(await owner.content()).not.toContain(recovery);

  // The viewer, in its own browser with its own passkey: sees the keys, no buttons to change them.
  const viewerContext = await browser.newContext();
  const viewer = await pageWithAuthenticator(viewerContext);
  const replaced = await viewerContext.newPage();
  await replaced.goto(link);
  await expect(replaced.getByText(/invalid, used or expired/)).toBeVisible();
  await replaced.close();
  await enrol(viewer, recovery);
  await viewer.goto(keysUrl);
  await expect(keyRows(viewer, "e2e backend")).toContainText("Revoked");
  await expect(viewer.getByTestId("signing-key-row")).toHaveCount(before + 1);
  await expect(viewer.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /Revoke|Rotate/ })).toHaveCount(0);
  // Owners only: the page is not found for a viewer (streamed under loading.tsx, so the status is 200).
  await viewer.goto(`${server.base}/console/operators`);
  await expect(viewer.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(viewer.getByText("viewer@ops.test · viewer")).toBeVisible();
  await expect(viewer.getByTestId("operator-row")).toHaveCount(0);

  // The owner's create-key action replayed with the viewer's cookies, then with none: refused.
  const asViewer = await viewerContext.request.post(createAction.url, createAction);
  expect(await asViewer.text()).toMatch(/your role does not allow this/i);
  const anonymous = await request.newContext();
  const signedOut = await anonymous.post(createAction.url, createAction);
  expect(await signedOut.text()).toMatch(/your console session has ended/i);
  await anonymous.dispose();
  await owner.goto(keysUrl);
  await expect(keyRows(owner, "e2e backend")).toHaveCount(1);

  // Sign out everywhere ends the viewer's other session, in another browser context.
  const firstSession = await viewerContext.cookies();
  await viewerContext.clearCookies();
  await signIn(viewer, server.base);
  const otherContext = await browser.newContext();
  await otherContext.addCookies(firstSession);
  const other = await otherContext.newPage();
  await other.goto(`${server.base}/console/account`);
  await expect(other.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expect(other.getByTestId("passkey-row")).toHaveCount(1);
  await expectAccessible(other, "account page");

  await viewer.goto(`${server.base}/console/account`);
  // Signed out, the viewer must stay on the sign-in page: no passkey to answer its autofill request.
  await removeAuthenticator(viewer);
  await viewer.getByRole("button", { name: "Sign out everywhere" }).click();
  await viewer
    .getByRole("dialog", { name: "Sign out everywhere?" })
    .getByRole("button", { name: "Sign out everywhere" })
    .click();
  await expect(viewer).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await other.goto(`${server.base}/console/account`);
  await expect(other).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);

  await expect(viewer).toHaveURL(/\/console\/sign-in/);
  await Promise.all([ownerContext.close(), viewerContext.close(), otherContext.close()]);
});

test("the home page leads to the console, the docs and the demos, at 375 px and in dark mode", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto(`${server.base}/`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sesame");
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Open the admin console" })).toHaveAttribute(
    "href",
    `${server.base}/console`,
  );
  await expect(page.getByRole("link", { name: "Read the guides and API reference" })).toHaveAttribute(
    "href",
    "/docs",
  );
  await expect(page.getByRole("link", { name: "Passkeys demo", exact: true })).toHaveAttribute(
    "href",
    "/examples/passkeys",
  );
  await expect(page.getByText("/v1/uaf/requests")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, "home page (dark, 375 px)");
  await page.getByRole("link", { name: "Open the admin console" }).click();
  await expect(page).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await context.close();
});
