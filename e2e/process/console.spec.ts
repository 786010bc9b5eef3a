import { expect, test } from "@playwright/test";
import {
  enrol,
  pageWithAuthenticator,
  signIn,
  startConsoleServer,
  type ConsoleServer,
} from "./console-support";

let server: ConsoleServer;

test.beforeAll(async () => {
  server = await startConsoleServer("console");
});
test.afterAll(async () => {
  await server?.stop();
});

test("the first-start setup link registers the owner's passkey, who signs out and in again", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await pageWithAuthenticator(context);
  await enrol(page, server.setupUrl, "owner@sesame.test");
  await expect(page.getByTestId("operator-email")).toHaveText("owner@sesame.test · owner");

  // The link worked once.
  const again = await context.newPage();
  await again.goto(server.setupUrl);
  await expect(again.getByText(/invalid, used or expired/)).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await page.goto(`${server.base}/console`);
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await signIn(page, server.base);
  await expect(page.getByTestId("operator-email")).toContainText("owner@sesame.test");
  await context.close();
});
