import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

let server: ServerProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
});

const EXAMPLES = [
  "/examples",
  "/examples/passkeys",
  "/examples/uaf",
  "/examples/authenticator",
  "/examples/hanko-elements",
  "/examples/sesame-elements",
  "/examples/hanko-elements/elements.js",
];

test("security 3 and 11: away from localhost the example pages are gone and the dev outbox warns at start", async ({
  request,
}) => {
  const port = await freePort();
  server = startProcess(SERVER, {
    PORT: String(port),
    // A public deployment (reached here on loopback): the demo tenant is seeded, the examples are not served.
    SESAME_BASE_URL: "https://auth.example.test",
    SESAME_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "sesame-examples-")),
    DATABASE_URL: "",
    SMTP_URL: "",
  });
  const printed = await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  expect(printed).toContain("example pages      off (SESAME_EXAMPLES)");
  expect(printed).not.toContain("/examples/");
  expect(printed).toMatch(/WARNING: SMTP_URL is not set/);
  for (const page of EXAMPLES) {
    const res = await request.get(`http://localhost:${port}${page}`);
    expect(res.status(), page).toBe(404);
  }
});

/** An IPv4 address of this machine that is not loopback, if it has one. */
const outsideAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

test("security 3: on localhost the example pages answer this machine only, marked as demo pages", async ({
  page,
  request,
}) => {
  const port = await freePort();
  server = startProcess(SERVER, {
    PORT: String(port),
    SESAME_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "sesame-examples-")),
    DATABASE_URL: "",
  });
  const printed = await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  expect(printed).not.toMatch(/WARNING: SMTP_URL/);
  const res = await page.goto(`http://localhost:${port}/examples/passkeys`);
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId("examples-notice")).toContainText("demo tenant's API keys");
  // The index (was a 404) says what each demo shows and links to it and to its API reference.
  expect((await page.goto(`http://localhost:${port}/examples`))?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Examples", level: 1 })).toBeVisible();
  for (const demo of EXAMPLES.slice(1, -1)) await expect(page.locator(`a[href="${demo}"]`)).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Passkey API reference" })).toHaveAttribute(
    "href",
    "/docs?api=passkey",
  );
  // A client from another machine (here: the same server reached on a non-loopback address) gets 404,
  // whatever it writes in X-Forwarded-For.
  const outside = outsideAddress();
  test.skip(!outside, "no non-loopback IPv4 address on this machine");
  const remote = await request.get(`http://${outside}:${port}/examples/passkeys`, {
    headers: { "x-forwarded-for": "127.0.0.1" },
  });
  expect(remote.status()).toBe(404);
});
