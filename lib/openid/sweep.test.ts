import { describe, expect, it } from "vitest";
import { createTenant } from "@/lib/tenants";
import { DatabaseAdapter } from "./adapter";
import { sweepExpiredOpenidModels } from "./sweep";

describe("sweepExpiredOpenidModels", () => {
  it("deletes expired models only, in batches", async () => {
    const tenant = await createTenant({ name: "openid-sweep" });
    const codes = new DatabaseAdapter(tenant.id, "AuthorizationCode");
    await codes.upsert("expired-1", { kind: "AuthorizationCode" }, -10);
    await codes.upsert("expired-2", { kind: "AuthorizationCode" }, -10);
    await codes.upsert("expired-3", { kind: "AuthorizationCode" }, -10);
    await codes.upsert("live", { kind: "AuthorizationCode" }, 60);
    expect(await codes.find("expired-1")).toBeUndefined(); // expired rows are never found
    expect(await sweepExpiredOpenidModels({ batchSize: 2 })).toBeGreaterThanOrEqual(3);
    expect(await codes.find("live")).toMatchObject({ kind: "AuthorizationCode", jti: "live" });
    expect(await sweepExpiredOpenidModels()).toBe(0);
  });

  it("consumes a code once: a second consume fails and revokes its grant", async () => {
    const tenant = await createTenant({ name: "openid-consume" });
    const codes = new DatabaseAdapter(tenant.id, "AuthorizationCode");
    const tokens = new DatabaseAdapter(tenant.id, "AccessToken");
    await codes.upsert("code-1", { kind: "AuthorizationCode", grantId: "g1" }, 60);
    await tokens.upsert("token-1", { kind: "AccessToken", grantId: "g1" }, 60);
    const results = await Promise.allSettled([codes.consume("code-1"), codes.consume("code-1")]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await tokens.find("token-1")).toBeUndefined();
    // Another tenant's adapter sees nothing of this tenant's rows.
    const other = await createTenant({ name: "openid-other" });
    expect(await new DatabaseAdapter(other.id, "AuthorizationCode").find("code-1")).toBeUndefined();
  });
});
