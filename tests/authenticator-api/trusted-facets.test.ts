import { describe, expect, it } from "vitest";
import * as facets from "@/app/(authenticator-api)/v1/uaf/trusted-facets/[tenantId]/route";
import { updateTenant } from "@/lib/tenants";
import { call } from "../helpers/http";
import { createTestTenant } from "../helpers/tenants";

const get = (tenantId: string) =>
  call(facets.GET, `/v1/uaf/trusted-facets/${tenantId}`, { params: { tenantId } });

describe("GET /v1/uaf/trusted-facets/{tenantId}", () => {
  it("lists the tenant's origins, then its configured FacetIDs, for UAF 1.0 and 1.1", async () => {
    const { tenant } = await createTestTenant();
    const res = await get(tenant.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/fido.trusted-apps+json");
    expect(await res.json()).toEqual({
      trustedFacets: [
        { version: { major: 1, minor: 0 }, ids: ["http://localhost:3000"] },
        { version: { major: 1, minor: 1 }, ids: ["http://localhost:3000"] },
      ],
    });

    const apk = "android:apk-key-hash:2jmj7l5rSw0yVb/vlWAYkK/YBwk";
    await updateTenant(tenant.id, { uaf: { facetIds: [apk, "ios:bundle-id:com.example.app"] } });
    const body = await (await get(tenant.id)).json();
    expect(body.trustedFacets[1].ids).toEqual([apk, "ios:bundle-id:com.example.app"]);
  });

  it("answers 404 in the Authenticator error shape for an unknown or malformed tenant", async () => {
    for (const [id, status] of [
      ["00000000-0000-4000-8000-000000000000", 404],
      ["nope", 400],
    ] as const) {
      const res = await get(id);
      expect(res.status).toBe(status);
      const body = await res.json();
      expect(body.code).toBe(res.status);
      expect(body[res.status === 404 ? "messsage" : "message"]).toEqual(expect.any(String));
    }
  });

  it("refuses FacetIDs that are neither origins nor app identities", async () => {
    const { tenant } = await createTestTenant();
    await expect(
      updateTenant(tenant.id, { uaf: { facetIds: ["https://x.example/path"] } }),
    ).rejects.toThrow();
    await expect(updateTenant(tenant.id, { uaf: { facetIds: ["javascript:alert(1)"] } })).rejects.toThrow();
    expect((await (await get(tenant.id)).json()).trustedFacets[0].ids).toEqual(["http://localhost:3000"]);
  });
});
