import { expect, test } from "./fixtures";

test.describe("/examples/passkeys: a relying party on the Passkey API, in Chromium", () => {
  test("registers, logs in, signs a transaction, lists, renames and deletes passkeys", async ({ page }) => {
    // Chromium's virtual authenticator (CDP): a platform authenticator with user verification.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    const username = `demo-${Date.now()}`;
    await page.goto("/examples/passkeys");
    await page.getByPlaceholder("username").fill(username);
    await page.getByRole("button", { name: "Register passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(`Registered a passkey for ${username}`);
    await expect(page.getByRole("heading", { name: `Signed in as ${username}` })).toBeVisible();
    await expect(page.getByRole("listitem")).toHaveCount(1);

    // A fresh page: log in with the discoverable passkey.
    await page.reload();
    await page.getByRole("button", { name: "Log in with passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(`Logged in as ${username}`);

    await page.getByLabel("Transfer (EUR)").fill("99.50");
    await page.getByRole("button", { name: "Sign transaction" }).click();
    await expect(page.getByRole("status")).toHaveText(
      new RegExp(`^Signed transaction [0-9a-f-]{36} as ${username}$`),
    );

    await page.getByLabel("Passkey name").fill("My laptop");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByRole("status")).toHaveText("Renamed passkey to My laptop");
    await expect(page.getByRole("listitem", { name: "Passkey My laptop" })).toBeVisible();

    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText("Deleted the passkey");
    await expect(page.getByText("No passkeys.")).toBeVisible();

    // The deleted passkey no longer logs in.
    await page.reload();
    await page.getByRole("button", { name: "Log in with passkey" }).click();
    await expect(page.getByRole("status")).toHaveText(/failed to validate assertion/);
  });
});
