import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto";
import { getDatabase } from "@/lib/db";
import { apiKeys } from "@/lib/db/schema";
import { createTestTenant } from "@/tests/helpers/tenants";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from ".";

describe("API keys", () => {
  it("are at least 32 characters with a readable prefix and 256 random bits", async () => {
    const { tenant } = await createTestTenant();
    const { key, secret } = await createApiKey(tenant.id, { name: "ci", scopes: ["passkey"] });
    expect(secret).toMatch(/^sesame_passkey_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice("sesame_passkey_".length), "base64url")).toHaveLength(32);
    expect(key.prefix).toBe(secret.slice(0, key.prefix.length));
    expect(key).not.toHaveProperty("secretHash");
    const other = await createApiKey(tenant.id, { name: "ci", scopes: ["passkey", "admin"] });
    expect(other.secret).toMatch(/^sesame_key_/);
    expect(other.key.scopes).toEqual(["admin", "passkey"]);
  });

  it("are stored only as their SHA-256", async () => {
    const { tenant } = await createTestTenant();
    const { key, secret } = await createApiKey(tenant.id, { name: "x", scopes: ["admin"] });
    const { db } = await getDatabase();
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.secretHash).toBe(sha256Hex(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(-20));
  });

  it("authenticate with the right scope and tenant, and record their last use", async () => {
    const { tenant, keys } = await createTestTenant();
    const result = await authenticateApiKey(keys.admin, { scope: "admin", tenantId: tenant.id });
    expect(result.tenantId).toBe(tenant.id);
    const listed = (await listApiKeys(tenant.id)).find((k) => k.id === result.keyId);
    expect(listed?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("an Authenticator key names its tenant", async () => {
    const { tenant, keys } = await createTestTenant();
    expect((await authenticateApiKey(keys.authenticator, { scope: "authenticator" })).tenantId).toBe(
      tenant.id,
    );
  });

  it.each([
    ["a missing key", () => undefined],
    ["a short key", () => "sesame_admin_short"],
    ["an over-long key", () => "x".repeat(500)],
    ["an unknown key", () => `sesame_admin_${"A".repeat(43)}`],
  ])("refuse %s with API_KEY_INVALID", async (_name, make) => {
    const { tenant } = await createTestTenant();
    await expect(authenticateApiKey(make(), { scope: "admin", tenantId: tenant.id })).rejects.toMatchObject({
      code: "API_KEY_INVALID",
    });
  });

  it("refuse a key of the wrong scope or of another tenant", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    await expect(
      authenticateApiKey(a.keys.passkey, { scope: "admin", tenantId: a.tenant.id }),
    ).rejects.toMatchObject({
      code: "API_KEY_INVALID",
    });
    await expect(
      authenticateApiKey(a.keys.admin, { scope: "admin", tenantId: b.tenant.id }),
    ).rejects.toMatchObject({
      code: "API_KEY_INVALID",
    });
  });

  it("stop working when revoked; revoking twice is harmless", async () => {
    const { tenant, keys } = await createTestTenant();
    const { keyId } = await authenticateApiKey(keys.passkey, { scope: "passkey", tenantId: tenant.id });
    const revoked = await revokeApiKey(tenant.id, keyId);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    await expect(
      authenticateApiKey(keys.passkey, { scope: "passkey", tenantId: tenant.id }),
    ).rejects.toMatchObject({
      code: "API_KEY_INVALID",
    });
    expect((await revokeApiKey(tenant.id, keyId)).revokedAt).toEqual(revoked.revokedAt);
  });

  it("cannot be revoked through another tenant", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const { keyId } = await authenticateApiKey(a.keys.admin, { scope: "admin", tenantId: a.tenant.id });
    await expect(revokeApiKey(b.tenant.id, keyId)).rejects.toMatchObject({ code: "API_KEY_NOT_FOUND" });
    await expect(revokeApiKey(b.tenant.id, "not-a-uuid")).rejects.toMatchObject({
      code: "API_KEY_NOT_FOUND",
    });
    await expect(
      authenticateApiKey(a.keys.admin, { scope: "admin", tenantId: a.tenant.id }),
    ).resolves.toBeDefined();
  });

  it("refuse bad settings and unknown tenants without storing anything", async () => {
    const { tenant } = await createTestTenant();
    const before = (await listApiKeys(tenant.id)).length;
    await expect(createApiKey(tenant.id, { name: "x", scopes: [] })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(createApiKey(tenant.id, { name: "x", scopes: ["root" as never] })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(
      createApiKey("00000000-0000-4000-8000-000000000000", { name: "x", scopes: ["admin"] }),
    ).rejects.toMatchObject({
      code: "TENANT_NOT_FOUND",
    });
    expect((await listApiKeys(tenant.id)).length).toBe(before);
  });
});
