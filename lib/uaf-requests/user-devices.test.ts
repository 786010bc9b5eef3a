import { describe, expect, it } from "vitest";
import { upsertExternalUser } from "@/lib/users";
import { createTestTenant } from "@/tests/helpers/tenants";
import { insertRegistration } from "./store";
import { devicesOfUser } from "./user-devices";

describe("devicesOfUser", () => {
  it("lists the user's registrations by Sesame id, and only theirs", async () => {
    const { tenant } = await createTestTenant();
    const user = await upsertExternalUser(tenant.id, {
      externalId: "u1",
      username: "u1",
      displayName: "U",
      icon: null,
    });
    const other = await upsertExternalUser(tenant.id, {
      externalId: "u2",
      username: "u2",
      displayName: "U",
      icon: null,
    });
    expect(await devicesOfUser(tenant.id, user.id)).toEqual([]);
    const registration = (keyId: string, userId: string) => ({
      tenantId: tenant.id,
      userId,
      aaid: "FFFF#0001",
      keyId,
      publicKey: "AA",
      publicKeyAlgAndEncoding: 256,
      signatureAlgAndEncoding: 1,
      signCounter: 0,
      regCounter: 0,
      authenticatorVersion: 1,
      attestationType: "surrogate",
      facetId: "android:apk-key-hash:x",
      upv: "1.1",
      appId: "https://localhost",
      name: `key ${keyId}`,
    });
    await insertRegistration(registration("k1", user.id));
    await insertRegistration(registration("k2", other.id));
    const devices = await devicesOfUser(tenant.id, user.id);
    expect(devices.map((device) => device.keyName)).toEqual(["key k1"]);
    expect(devices[0]).toMatchObject({ aaid: "FFFF#0001", authenticatorType: "FIDO_UAF" });
  });
});
