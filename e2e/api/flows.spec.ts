import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { expect, test } from "../fixtures";

/** The master secret playwright.config.ts gives the instances that share Postgres. */
const SHARED_MASTER_SECRET = "e2e-shared-master-secret-0123456789abcdef";

interface FlowBody {
  name: string;
  status: number;
  payload?: Record<string, unknown>;
  actions: Record<string, { href: string; inputs: Record<string, { value?: unknown }> }>;
  csrf_token: string;
  error?: { code: string };
}

/** Creates a tenant with the CLI on the instances' shared database. */
function createTenant(origin: string, ...settings: string[]): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-e2e-cli-"));
  const result = spawnSync(
    "node_modules/.bin/tsx",
    [
      "cli/sesame.ts",
      "tenant",
      "create",
      "--name",
      `flow-${randomUUID().slice(0, 8)}`,
      "--rp-id",
      "localhost",
      "--origin",
      origin,
      ...settings,
      "--json",
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        SESAME_MASTER_SECRET: SHARED_MASTER_SECRET,
        SESAME_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout).tenant.id as string;
}

/** Posts an offered action to `<instance>/t/<tenant><href>` as the elements do. */
async function act(
  request: APIRequestContext,
  base: string,
  state: FlowBody,
  action: string,
  input: Record<string, unknown> = {},
): Promise<FlowBody> {
  const offered = state.actions[action];
  expect(offered, `${action} in ${state.name}`).toBeDefined();
  const res = await request.post(`${base}${offered!.href}`, {
    data: { input_data: input, csrf_token: state.csrf_token },
    headers: { origin: new URL(base).origin },
  });
  const body = (await res.json()) as FlowBody;
  expect(res.status(), JSON.stringify(body.error)).toBe(body.status);
  return body;
}

test.describe("flow API over HTTP", () => {
  test("both URL forms answer on the real server", async ({ request, demo }) => {
    const hanko = await request.post(`/t/${demo.tenantId}/login`);
    expect(hanko.status()).toBe(200);
    const started = (await hanko.json()) as FlowBody;
    expect(started.name).toBe("preflight");
    expect(started.actions.register_client_capabilities!.href).toMatch(
      /^\/login\?action=register_client_capabilities%40[0-9a-f-]{36}$/,
    );
    const spec = await request.post(`/t/${demo.tenantId}/flow/registration/initialize`);
    expect(spec.status()).toBe(200);
    expect(((await spec.json()) as FlowBody).name).toBe("preflight");
    const unknown = await request.post(`/t/${demo.tenantId}/flow/nothing/initialize`);
    expect(unknown.status()).toBe(400);
    expect(((await unknown.json()) as FlowBody).name).toBe("error");
  });

  test("a sign-up started on one instance finishes on the other (flow state in the shared Postgres)", async ({
    request,
    baseURL,
  }, testInfo) => {
    const second = testInfo.project.metadata.secondInstanceURL as string | undefined;
    test.skip(!second, "needs two instances on one Postgres database (the postgres project)");
    const origin = new URL(baseURL!).origin;
    const tenantId = createTenant(
      origin,
      "--emails-require-verification",
      "false",
      "--cookie-secure",
      "false",
    );
    const [a, b] = [`${origin}/t/${tenantId}`, `${second}/t/${tenantId}`];

    const start = await request.post(`${a}/registration`);
    let state = (await start.json()) as FlowBody;
    expect(state.name).toBe("preflight");
    state = await act(request, b, state, "register_client_capabilities", {
      webauthn_available: true,
      webauthn_conditional_mediation_available: true,
      webauthn_platform_authenticator_available: true,
    });
    expect(state.name).toBe("registration_init");
    state = await act(request, a, state, "register_login_identifier", {
      email: `${randomUUID()}@example.com`,
    });
    expect(state.name).toBe("onboarding_create_passkey");
    state = await act(request, b, state, "webauthn_generate_creation_options");
    expect(state.name).toBe("onboarding_verify_passkey_attestation");
    const options = (
      state.payload!.creation_options as {
        publicKey: Parameters<WebAuthnSoftwareAuthenticator["register"]>[0];
      }
    ).publicKey;
    const attestation = await new WebAuthnSoftwareAuthenticator().register(options, { origin });
    // The CSRF token of one instance's answer is accepted by the other; the old one no longer is.
    const stale = state;
    state = await act(request, a, state, "webauthn_verify_attestation_response", { public_key: attestation });
    expect(state.name).toBe("success");
    const claims = state.payload!.claims as { subject: string; expiration: string };
    expect(Date.parse(claims.expiration)).toBeGreaterThan(Date.now());

    const replay = await request.post(`${b}${stale.actions.webauthn_verify_attestation_response!.href}`, {
      data: { input_data: { public_key: attestation }, csrf_token: stale.csrf_token },
    });
    expect(replay.status()).toBe(403);
    expect(((await replay.json()) as FlowBody).error?.code).toBe("operation_not_permitted_error");

    // The session cookie the success set is valid on both instances.
    for (const base of [b, a]) {
      const validate = await request.get(`${base}/sessions/validate`);
      expect(await validate.json()).toMatchObject({ is_valid: true, user_id: claims.subject });
    }
  });
});
