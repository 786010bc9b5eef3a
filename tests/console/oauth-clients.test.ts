import { describe, expect, it, vi } from "vitest";
import {
  createClientAction,
  deleteClientAction,
  rotateClientSecretAction,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/oauth-clients/actions";
import { listAuditEvents } from "@/lib/audit";
import { getOAuthClient } from "@/lib/openid";
import { signInOperator } from "@/tests/helpers/console";
import { createTestTenant } from "@/tests/helpers/tenants";

// Next's request plumbing only (see tests/helpers/console.ts); imported lazily, as vi.mock is hoisted.
vi.mock("next-auth", async (original) =>
  (await import("@/tests/helpers/console")).nextMocks.nextAuth(original as never),
);
vi.mock("next/headers", async () => (await import("@/tests/helpers/console")).nextMocks.headers());
vi.mock("next/cache", async () => (await import("@/tests/helpers/console")).nextMocks.cache());

const FORM = {
  name: "Grafana",
  redirectUris: ["https://grafana.example.com/login/generic_oauth"],
  scopes: ["email", "offline_access"],
  public: false,
  firstParty: true,
};

describe("console: OAuth clients", () => {
  it("creates (secret once), rotates and deletes a client, audited with the operator", async () => {
    const { tenant } = await createTestTenant();
    await signInOperator(`owner-${crypto.randomUUID()}@example.com`);
    const created = await createClientAction(tenant.id, FORM);
    if (!created.ok) throw new Error(created.error);
    expect(created.data.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const client = await getOAuthClient(tenant.id, created.data.clientId);
    expect(client).toMatchObject({ name: "Grafana", firstParty: true, confidential: true });
    expect(client.metadata).toMatchObject({
      scope: "openid email offline_access",
      grant_types: ["authorization_code", "refresh_token"],
    });
    const rotated = await rotateClientSecretAction(tenant.id, created.data.clientId);
    expect(rotated.ok && rotated.data.secret).not.toBe(created.data.secret);
    expect((await deleteClientAction(tenant.id, created.data.clientId)).ok).toBe(true);
    expect(await deleteClientAction(tenant.id, created.data.clientId)).toMatchObject({ ok: false });
    const events = (await listAuditEvents(tenant.id, { limit: 50 })).items.filter((e) =>
      e.type.startsWith("oauth.client."),
    );
    expect(events.map((e) => e.type).sort()).toEqual([
      "oauth.client.created",
      "oauth.client.deleted",
      "oauth.client.secret_rotated",
    ]);
    for (const event of events) expect(event.actor).toMatch(/^operator:/);

    const spa = await createClientAction(tenant.id, { ...FORM, public: true });
    expect(spa.ok && spa.data.secret).toBeUndefined();
  });

  it("answers bad input at its field, never throws; a viewer and another tenant's admin are refused", async () => {
    const { tenant } = await createTestTenant();
    await signInOperator(`owner-${crypto.randomUUID()}@example.com`);
    const cases: [unknown, string][] = [
      [{ ...FORM, name: "" }, "name"],
      [{ ...FORM, name: 7 }, "name"],
      [{ ...FORM, name: "x".repeat(201) }, "name"],
      [{ ...FORM, redirectUris: [] }, "redirectUris"],
      [{ ...FORM, redirectUris: "https://a.example/cb" }, "redirectUris"],
      [{ ...FORM, scopes: ["admin"] }, "scopes.0"],
      [{ ...FORM, public: "yes" }, "public"],
    ];
    for (const [input, field] of cases) {
      const result = await createClientAction(tenant.id, input);
      expect(result.ok, field).toBe(false);
      expect(!result.ok && result.fieldErrors?.[field], field).toBeTruthy();
    }
    const http = await createClientAction(tenant.id, { ...FORM, redirectUris: ["http://app.example/cb"] });
    expect(http).toMatchObject({ ok: false, error: expect.stringMatching(/http only on loopback/) });
    expect(await deleteClientAction(tenant.id, 42)).toMatchObject({ ok: false });

    await signInOperator(`viewer-${crypto.randomUUID()}@example.com`, "viewer", [tenant.id]);
    expect(await createClientAction(tenant.id, FORM)).toMatchObject({
      ok: false,
      code: "CONSOLE_ROLE_INSUFFICIENT",
    });
    const other = await createTestTenant();
    await signInOperator(`admin-${crypto.randomUUID()}@example.com`, "admin", [other.tenant.id]);
    expect(await createClientAction(tenant.id, FORM)).toMatchObject({ ok: false, code: "TENANT_NOT_FOUND" });
  });
});
