import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./browser-journey";
import { enrol, pageWithAuthenticator, startConsoleServer, type ConsoleServer } from "./console-support";

/** A webhook receiver on loopback that answers 200 "ok" and keeps what it got. */
async function startReceiver() {
  const received: { id: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  // Both address families: the server resolves `localhost` and may connect to ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  const { port } = server.address() as AddressInfo;
  return { received, url: `http://localhost:${port}/hooks`, close: () => server.close() };
}

let server: ConsoleServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

test.beforeAll(async () => {
  receiver = await startReceiver();
  server = await startConsoleServer("console-hooks", { SESAME_WEBHOOKS_ALLOW_PRIVATE: "true" });
});
test.afterAll(async () => {
  await server?.stop();
  receiver?.close();
});

/** Refreshes the deliveries until `count` rows all say `succeeded`. */
async function expectDelivered(page: Page, count: number) {
  const rows = page.getByTestId("delivery-row");
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(rows).toHaveCount(count, { timeout: 1_000 });
    for (let i = 0; i < count; i++) await expect(rows.nth(i)).toContainText("succeeded", { timeout: 500 });
  }).toPass({ timeout: 20_000 });
}

test("webhooks: create with the event hierarchy, secret once, test event delivered and replayed; the audit log filtered and exported", async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext();
  const page = await pageWithAuthenticator(context);
  await enrol(page, server.setupUrl, "owner@sesame.test");
  const base = `${server.base}/console/tenants/${server.tenantId}`;

  await page.goto(`${base}/webhooks`);
  await expect(page.getByText("No webhooks yet")).toBeVisible();
  await expectAccessible(page, "webhooks (empty)");
  await page.getByRole("link", { name: "Create webhook" }).click();
  await expect(page.getByRole("heading", { name: "Create a webhook" })).toBeVisible();

  // A parent subscribes to its prefix: the names below it are included.
  await page.getByRole("checkbox", { name: /^user and everything below/ }).check();
  const child = page.getByRole("checkbox", { name: /^user\.create\b/ });
  await expect(child).toBeChecked();
  await expect(child).toBeDisabled();
  await expectAccessible(page, "create webhook");

  // The SSRF guard's refusal sits next to the URL field.
  await page.getByLabel("Callback URL").fill("https://169.254.169.254/hooks");
  await page.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.locator("#callback-error")).toContainText("169.254.169.254");

  await page.getByLabel("Callback URL").fill(receiver.url);
  await page.getByRole("button", { name: "Create webhook" }).click();
  const secret = page.getByTestId("secret-value");
  await expect(secret).toHaveText(/^whsec_/);
  const firstSecret = await secret.textContent();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/\/webhooks\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await expect(page.getByText("No deliveries yet")).toBeVisible();

  // A test event reaches the receiver and shows in the deliveries.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Test event queued" })).toBeVisible();
  await expectDelivered(page, 1);
  expect(receiver.received).toHaveLength(1);
  expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: "webhook.test" });

  // Its attempt detail: the request as formed, the receiver's answer.
  await page.getByRole("link", { name: /^Attempts of the webhook\.test delivery/ }).click();
  await expect(page).toHaveURL(/[?&]delivery=/);
  await expect(page.getByTestId("request-headers")).toContainText(`webhook-id: ${receiver.received[0]!.id}`);
  await expect(page.getByTestId("request-body")).toContainText('"event": "webhook.test"');
  await expect(page.getByTestId("attempt-row")).toHaveCount(1);
  await expect(page.getByTestId("attempt-row")).toContainText("200");
  await expectAccessible(page, "webhook detail");

  // Replay: a new delivery (a new webhook-id) of the same event.
  await page.getByRole("button", { name: /^Replay the webhook\.test delivery/ }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Replay queued" })).toBeVisible();
  await expectDelivered(page, 2);
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1]!.id).not.toBe(receiver.received[0]!.id);

  // The status filter is kept in the URL.
  await page.getByRole("link", { name: "Failed", exact: true }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByText("No failed deliveries")).toBeVisible();

  // The list shows the webhook and its state.
  await page.goto(`${base}/webhooks`);
  await expect(page.getByRole("link", { name: receiver.url })).toBeVisible();
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();

  // The audit log, filtered by a type prefix (a GET form: the filter is in the URL).
  await page.goto(`${base}/audit`);
  await page.getByLabel("Type", { exact: true }).fill("webhook.*");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]type=webhook\.\*/);
  const rows = page.getByTestId("audit-row");
  await expect(rows).toHaveCount(3);
  for (const type of ["webhook.created", "webhook.test_sent", "webhook.delivery_replayed"])
    await expect(rows.filter({ hasText: type })).toHaveCount(1);
  await expectAccessible(page, "audit log");
  await rows
    .filter({ hasText: "webhook.created" })
    .getByRole("button", { name: /^View details of/ })
    .click();
  const json = page.getByTestId("audit-entry-json").filter({ visible: true });
  await expect(json).toContainText('"type": "webhook.created"');
  await expect(json).toContainText('"actor": "operator:');
  await page.getByRole("button", { name: "Close" }).filter({ visible: true }).click();

  // The CSV export of the same selection.
  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  expect(href).toContain("type=webhook.*");
  const csv = await page.request.get(`${server.base}${href}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toMatch(/^id,created_at,type,/);
  expect(lines.slice(1)).toHaveLength(3);
  for (const line of lines.slice(1)) expect(line.split(",")[2]).toMatch(/^webhook\./);

  // The export is audited with the operator as actor.
  await page.goto(`${base}/audit?type=console.audit_log.exported`);
  await expect(page.getByTestId("audit-row")).toHaveCount(1);

  // Edit, disable and enable, rotate the secret (shown once), delete.
  await page.goto(`${base}/webhooks`);
  await page.getByRole("link", { name: receiver.url }).click();
  // Deliveries come first; the form waits behind "Edit" (issue 29, point 10), its events searchable.
  await expect(page.getByRole("button", { name: "Save changes" })).toBeHidden();
  await page.locator("summary", { hasText: "Edit" }).click();
  await page.getByLabel("Find an event").fill("sess");
  await expect(page.getByRole("checkbox", { name: /^email/ })).toHaveCount(0);
  await page.getByRole("checkbox", { name: /^session and everything below/ }).check();
  await page.getByLabel("Find an event").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Webhook saved" })).toBeVisible();
  await expect(page.getByText("user, session", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Disable", exact: true }).click();
  await expect(page.getByText("Disabled", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Enable", exact: true }).click();
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByTestId("secret-value");
  await expect(rotated).toHaveText(/^whsec_/);
  expect(await rotated.textContent()).not.toBe(firstSecret);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete webhook" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByText("No webhooks yet")).toBeVisible();

  // Signed out: the export and the pages are refused.
  const anonymous = await playwright.request.newContext();
  expect((await anonymous.get(`${server.base}${href}`)).status()).toBe(401);
  await anonymous.dispose();
  const other = await browser.newContext();
  const signedOut = await other.newPage();
  await signedOut.goto(`${base}/webhooks`);
  await expect(signedOut).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await other.close();
  await context.close();
});
