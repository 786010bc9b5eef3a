import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * /examples/uaf (the relying party) and /examples/authenticator (the phone app) in two tabs of one
 * browser: the QR code's link goes from one to the other by hand, as a person without a phone would.
 */
test.describe("/examples/uaf and /examples/authenticator: the out-of-band flow in Chromium", () => {
  test("registers, logs in, confirms a transaction, declines and cancels, renames and deregisters", async ({
    context,
  }) => {
    const rp = await context.newPage();
    const app = await context.newPage();
    const user = `uaf-${Date.now()}`;

    await app.goto("/examples/authenticator");
    await expect(app.getByText("No keys.")).toBeVisible();
    await rp.goto("/examples/uaf");
    await rp.getByLabel("User id").fill(user);

    const status = rp.getByLabel("Status", { exact: true });
    const devices = rp.getByRole("list", { name: "Registered authenticators" }).getByRole("listitem");
    const keys = app.getByRole("list", { name: "Keys held" }).getByRole("listitem");

    /** Carries the QR code's link from the relying party to the authenticator and opens it there. */
    async function openOnPhone(page: Page) {
      await expect(page.getByRole("img", { name: "QR code for the authenticator app" })).toBeVisible();
      const link = await page.getByLabel("App link").inputValue();
      expect(link).toMatch(/\/v1\/uaf\/app\/requests\/[0-9a-f-]{36}\?token=/);
      await app.getByLabel("Link from the QR code").fill(link);
      await app.getByRole("button", { name: "Open" }).click();
    }

    // REG
    await rp.getByRole("button", { name: "Register authenticator" }).click();
    await expect(status).toHaveText("PENDING");
    await openOnPhone(rp);
    await expect(app.getByLabel("Operation")).toHaveText("REG");
    await expect(app.getByLabel("Username")).toHaveText(user);
    await app.getByRole("button", { name: "Approve" }).click();
    await expect(app.getByRole("status")).toHaveText("Approved: the request is OK");
    await expect(keys).toHaveCount(1);
    await expect(status).toHaveText("OK");
    await expect(rp.getByLabel("Device ID")).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(devices).toHaveCount(1);

    // AUTH (log in)
    await rp.getByRole("button", { name: "Log in" }).click();
    await expect(status).toHaveText("PENDING");
    await openOnPhone(rp);
    await expect(app.getByLabel("Operation")).toHaveText("AUTH");
    await app.getByRole("button", { name: "Approve" }).click();
    await expect(app.getByRole("status")).toHaveText("Approved: the request is OK");
    await expect(status).toHaveText("OK");

    // AUTH with a transaction: the authenticator shows the text it signs
    const text = "Pay EUR 99.50 to Example Shop?";
    await rp.getByLabel("Transaction text").fill(text);
    await rp.getByRole("button", { name: "Confirm transaction" }).click();
    await expect(status).toHaveText("PENDING");
    await openOnPhone(rp);
    await expect(app.getByLabel("Transaction text")).toHaveText(text);
    await app.getByRole("button", { name: "Approve" }).click();
    await expect(status).toHaveText("OK");
    await expect(rp.getByLabel("Transaction", { exact: true })).toHaveText(text);

    // Declined on the phone: nothing is sent, the request stays PENDING until the relying party cancels it
    await rp.getByRole("button", { name: "Log in" }).click();
    await expect(status).toHaveText("PENDING");
    await openOnPhone(rp);
    await app.getByRole("button", { name: "Decline" }).click();
    await expect(app.getByRole("status")).toHaveText(/^Declined: nothing was sent/);
    await rp.waitForTimeout(1500); // at least one status poll after the decline
    await expect(status).toHaveText("PENDING");
    await rp.getByRole("button", { name: "Cancel" }).click();
    await expect(status).toHaveText("INVALIDATED");
    await expect(rp.getByRole("img", { name: "QR code for the authenticator app" })).toBeHidden();

    // Device management: rename
    await rp.getByLabel("Authenticator name").fill("My phone");
    await rp.getByRole("button", { name: "Rename" }).click();
    await expect(rp.getByRole("status")).toHaveText("Renamed the authenticator to My phone");
    await expect(rp.getByRole("listitem", { name: "Authenticator My phone" })).toBeVisible();

    // DEREG: the server forgets at once; the link tells the authenticator to forget too
    await rp.getByRole("button", { name: "Deregister" }).click();
    await expect(status).toHaveText("OK");
    await expect(rp.getByText("No authenticators registered.")).toBeVisible();
    await openOnPhone(rp);
    await expect(app.getByLabel("Operation")).toHaveText("DEREG");
    await app.getByRole("button", { name: "Approve" }).click();
    await expect(app.getByRole("status")).toHaveText("Approved: forgot 1 key; the request is OK");
    await expect(app.getByText("No keys.")).toBeVisible();
  });
});
