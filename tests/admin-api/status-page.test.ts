import { describe, expect, it } from "vitest";
import { listApiKeys, revokeApiKey } from "@/lib/api-keys";
import { call } from "@/tests/helpers/http";
import { createTestTenant } from "@/tests/helpers/tenants";
import { GET } from "@/app/(admin-api)/t/[tenantId]/admin/route";

const statusOf = (tenantId: string, authorization?: string) =>
  call(GET, `/t/${tenantId}/admin/`, {
    params: { tenantId },
    headers: authorization ? { authorization } : {},
  });

describe("GET /t/{tenant_id}/admin/ (status page)", () => {
  it("answers 200 text/plain with the tenant's admin key", async () => {
    const { tenant, keys } = await createTestTenant();
    const res = await statusOf(tenant.id, `Bearer ${keys.admin}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("API is running");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers 401 {code, message} without a key, with a passkey key, another tenant's key or a revoked key", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    const revoked = await createTestTenant();
    const revokedKey = (await listApiKeys(revoked.tenant.id)).find((k) => k.scopes.includes("admin"));
    await revokeApiKey(revoked.tenant.id, revokedKey!.id);

    const cases: [string, string | undefined][] = [
      [tenant.id, undefined],
      [tenant.id, `Bearer ${keys.passkey}`],
      [tenant.id, `Bearer ${keys.authenticator}`],
      [tenant.id, `Bearer ${other.keys.admin}`],
      [revoked.tenant.id, `Bearer ${revoked.keys.admin}`],
      [tenant.id, `Basic ${keys.admin}`],
    ];
    for (const [tenantId, authorization] of cases) {
      const res = await statusOf(tenantId, authorization);
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
    }
  });

  it("answers 401 for a well-formed tenant id that does not exist", async () => {
    const { keys } = await createTestTenant();
    const res = await statusOf("00000000-0000-4000-8000-000000000000", `Bearer ${keys.admin}`);
    expect(res.status).toBe(401);
  });

  it("answers 400 {code, message} for a tenant id that is not a UUID", async () => {
    const res = await statusOf("not-a-uuid");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 400 });
  });
});
