import { describe, expect, it } from "vitest";
import { createTenant, listSigningKeys, rotateSigningKey } from "@/lib/tenants";

describe("listSigningKeys", () => {
  it("lists the keys newest first with public data only", async () => {
    const tenant = await createTenant({ name: "list-keys", signingAlgorithm: "ES256" });
    const [first] = await listSigningKeys(tenant.id);
    const rotated = await rotateSigningKey(tenant.id, "EdDSA");
    const keys = await listSigningKeys(tenant.id);
    expect(keys.map((key) => [key.kid, key.algorithm, key.active])).toEqual([
      [rotated.id, "EdDSA", true],
      [first!.kid, "ES256", false],
    ]);
    expect(keys[1]!.retiredAt).toBeInstanceOf(Date);
    expect(Object.keys(keys[0]!).sort()).toEqual(["active", "algorithm", "createdAt", "kid", "retiredAt"]);
    await expect(listSigningKeys("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "TENANT_NOT_FOUND",
    });
  });
});
