import { randomUUID } from "node:crypto";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { expectAccessible, mailedCode } from "./browser-journey";
import { enrol, pageWithAuthenticator, startConsoleServer, type ConsoleServer } from "./console-support";

interface FlowBody {
  name: string;
  status: number;
  payload?: Record<string, unknown>;
  actions: Record<string, { href: string }>;
  csrf_token: string;
  error?: { code: string };
}

let server: ConsoleServer;

test.beforeAll(async () => {
  server = await startConsoleServer("console-analytics");
});
test.afterAll(async () => {
  await server?.stop();
});

/** Posts an offered flow action as the elements do. */
async function act(
  api: APIRequestContext,
  state: FlowBody,
  action: string,
  input: Record<string, unknown> = {},
): Promise<FlowBody> {
  const offered = state.actions[action];
  expect(offered, `${action} in ${state.name}`).toBeDefined();
  const res = await api.post(`${server.base}/t/${server.tenantId}${offered!.href}`, {
    data: { input_data: input, csrf_token: state.csrf_token },
    headers: { origin: server.base },
  });
  const body = (await res.json()) as FlowBody;
  expect(res.status(), JSON.stringify(body.error)).toBe(body.status);
  return body;
}

/** A sign-up through the registration flow over HTTP: address, the mailed code, a passkey. */
async function signUpWithPasskey(email: string): Promise<void> {
  const api = await playwrightRequest.newContext();
  const start = await api.post(`${server.base}/t/${server.tenantId}/registration`, {
    headers: { origin: server.base },
  });
  let state = (await start.json()) as FlowBody;
  state = await act(api, state, "register_client_capabilities", {
    webauthn_available: true,
    webauthn_conditional_mediation_available: true,
    webauthn_platform_authenticator_available: true,
  });
  state = await act(api, state, "register_login_identifier", { email });
  if (state.name === "passcode_confirmation") {
    state = await act(api, state, "verify_passcode", { code: await mailedCode(server.smtp, email, 0) });
  }
  if (state.name === "credential_onboarding_chooser") {
    state = await act(api, state, "continue_to_passkey_registration");
  }
  expect(state.name).toBe("onboarding_create_passkey");
  state = await act(api, state, "webauthn_generate_creation_options");
  const options = (
    state.payload!.creation_options as {
      publicKey: Parameters<WebAuthnSoftwareAuthenticator["register"]>[0];
    }
  ).publicKey;
  const attestation = await new WebAuthnSoftwareAuthenticator().register(options, { origin: server.base });
  state = await act(api, state, "webauthn_verify_attestation_response", { public_key: attestation });
  expect(state.name).toBe("success");
  await api.dispose();
}

test("a sign-up through the flow API shows on the analytics page and the overview", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await pageWithAuthenticator(context);
  await enrol(page, server.setupUrl, "owner@sesame.test");

  const analytics = `${server.base}/console/tenants/${server.tenantId}/analytics`;
  await page.goto(analytics);
  await expect(page.getByText(/No sign-ups or logins in the last 30 days/)).toBeVisible();

  const email = `${randomUUID()}@example.com`;
  await signUpWithPasskey(email);

  // The new user is in the console's user list, found by its email.
  await page.goto(`${server.base}/console/tenants/${server.tenantId}/users?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("table", { name: "Users" })).toContainText(email);

  await page.goto(analytics);
  const signups = page.getByRole("figure", { name: "Sign-ups" });
  await expect(page.locator("#signups-summary")).toHaveText(/^1 sign-up from \S+ to \S+ \(UTC\)/);
  // The visually hidden table carries the numbers.
  await expect(signups.getByRole("table")).toContainText("1");
  await expect(page.getByRole("figure", { name: "Logins by method" })).toContainText("1 login from");
  await expect(page.getByRole("figure", { name: "Logins by method" })).toContainText("passkey 1");
  await expect(page.getByRole("figure", { name: "Passkey adoption" })).toContainText(
    "100% of active users have a passkey: 1 of 1 user",
  );
  await expectAccessible(page, "analytics");

  // The bucket and period live in the URL.
  await page.getByRole("navigation", { name: "Group by" }).getByRole("link", { name: "Month" }).click();
  await expect(page).toHaveURL(/bucket=month&period=30/);
  await expect(signups).toContainText("1 sign-up");
  await page.getByRole("link", { name: "Last 365 days" }).click();
  await expect(page).toHaveURL(/bucket=month&period=365/);
  await expect(page.getByRole("link", { name: "Last 365 days" })).toHaveAttribute("aria-current", "page");

  await page.goto(`${server.base}/console`);
  const row = page.getByTestId(`overview-${server.tenantId}`);
  // Users, sign-ups (30 days), logins (30 days).
  await expect(row.getByRole("cell").nth(1)).toHaveText("1");
  await expect(row.getByRole("cell").nth(2)).toHaveText("1");
  await expect(row.getByRole("cell").nth(3)).toHaveText("1");
  await expect(page.getByTestId("health-database")).toContainText("Healthy");
  await expect(page.getByTestId("health-webhooks")).toContainText(/Healthy|Behind/);
  await expectAccessible(page, "overview");
  await context.close();
});

test("signed out, the analytics page and the overview lead to the sign-in page", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.base}/console/tenants/${server.tenantId}/analytics`);
  await expect(page).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await page.goto(`${server.base}/console`);
  await expect(page).toHaveURL(/\/console\/sign-in(\?next=%2Fconsole[^&]*|\?signed_out=1)?$/);
  await context.close();
});
