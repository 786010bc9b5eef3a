import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess } from "./server-process";
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

  // Signing out ends the session on the server: its cookie, replayed, leads to the sign-in page. (The
  // sign-in page's conditional UI may sign this page in again at once: the virtual authenticator answers.)
  const signedIn = await context.cookies();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/console\/sign-in\?signed_out=1$/);
  const replay = await browser.newContext();
  await replay.addCookies(signedIn);
  const replayed = await replay.newPage();
  await replayed.goto(`${server.base}/console`);
  await expect(replayed).toHaveURL(/\/console\/sign-in$/);
  // Sign-out says so (a page without an authenticator, which autofill cannot sign in again at once).
  await replayed.goto(`${server.base}/console/sign-in?signed_out=1`);
  await expect(replayed.getByTestId("signed-out")).toHaveText("You have signed out of the console.");
  // An ended session on a deeper page: the sign-in says why and keeps the way back (issue 29, point 8).
  await replayed.goto(`${server.base}/console/tenants?x=1`);
  await expect(replayed).toHaveURL(/\/console\/sign-in\?next=%2Fconsole%2Ftenants%3Fx%3D1$/);
  await expect(replayed.getByRole("status")).toContainText("Your console session has ended");
  await replay.close();
  await signIn(page, server.base);
  await expect(page.getByTestId("operator-email")).toContainText("owner@sesame.test");

  // Signed in again (autofill) from the page the operator had open: back on it, not on the overview.
  await context.clearCookies();
  await page.goto(`${server.base}/console/tenants`);
  await page.waitForURL(`${server.base}/console/tenants`);
  await expect(page.getByRole("heading", { name: "Tenants", level: 1 })).toBeVisible();
  await context.close();
});

test("with SESAME_ADMIN_PORT the console lives on the admin port only, passkeys included", async ({
  browser,
}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-console-admin-port-"));
  const [port, adminPort] = [await freePort(), await freePort()];
  const split = startProcess(SERVER, {
    PORT: String(port),
    SESAME_ADMIN_PORT: String(adminPort),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
  });
  try {
    const output = await split.waitFor(/\/console\/enroll#[A-Za-z0-9_-]+/);
    const setupUrl = /(http:\/\/\S+\/console\/enroll#[A-Za-z0-9_-]+)/.exec(output)![1]!;
    expect(setupUrl).toContain(`http://localhost:${adminPort}/console/enroll#`);
    expect((await fetch(`http://localhost:${port}/console/sign-in`)).status).toBe(404);

    const context = await browser.newContext();
    const page = await pageWithAuthenticator(context);
    await enrol(page, setupUrl, "owner@admin-port.test");
    await expect(page).toHaveURL(`http://localhost:${adminPort}/console`);
    await context.close();
  } finally {
    await split.stop();
  }
});
