import { eq } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db";
import { signingKeys } from "@/lib/db/schema";
import { createTenant, getJwks, getTenant, rotateSigningKey, signToken } from "@/lib/tenants";

async function verify(tenantId: string, token: string) {
  return jwtVerify(token, createLocalJWKSet(await getJwks(tenantId)), { audience: "localhost" });
}

describe("signing keys", () => {
  it.each(["RS256", "ES256", "EdDSA"] as const)(
    "signs %s tokens that verify against the tenant's JWKS",
    async (alg) => {
      const tenant = await createTenant({ name: `keys-${alg}`, signingAlgorithm: alg });
      const token = await signToken(
        tenant.id,
        { cred: "abc" },
        { expiresIn: 300, audience: ["localhost"], subject: "u1" },
      );
      const header = decodeProtectedHeader(token);
      expect(header).toMatchObject({ alg, typ: "JWT" });
      const { payload } = await verify(tenant.id, token);
      expect(payload).toMatchObject({ sub: "u1", aud: ["localhost"], cred: "abc" });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
      const jwks = await getJwks(tenant.id);
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({ kid: header.kid, alg, use: "sig" });
      expect(jwks.keys[0]).not.toHaveProperty("d");
    },
  );

  it("rotation makes a new key active and keeps earlier tokens verifiable", async () => {
    const tenant = await createTenant({ name: "rotate" });
    const before = await signToken(tenant.id, {}, { expiresIn: 300, audience: "localhost" });
    const rotated = await rotateSigningKey(tenant.id, "ES256");
    const after = await signToken(tenant.id, {}, { expiresIn: 300, audience: "localhost" });

    expect(decodeProtectedHeader(after)).toMatchObject({ kid: rotated.id, alg: "ES256" });
    expect(decodeProtectedHeader(before).kid).not.toBe(rotated.id);
    await expect(verify(tenant.id, before)).resolves.toBeDefined();
    await expect(verify(tenant.id, after)).resolves.toBeDefined();
    expect((await getJwks(tenant.id)).keys.map((k) => k.kid)[0]).toBe(rotated.id);

    const { db } = await getDatabase();
    const rows = await db.select().from(signingKeys).where(eq(signingKeys.tenantId, tenant.id));
    expect(rows.filter((row) => row.active)).toHaveLength(1);
    expect(rows.find((row) => !row.active)?.retiredAt).toBeInstanceOf(Date);
  });

  it("signs with the key the tenant read names: a rotation on another instance shows at the next read", async () => {
    const created = await createTenant({ name: "kid-carried" });
    const read = await getTenant(created.id);
    expect(read.activeSigningKeyId).toBe(created.activeSigningKeyId);
    const rotated = await rotateSigningKey(created.id, "ES256");
    // A tenant read before the rotation still names the old key, which stays in the JWKS.
    const stale = await signToken(read, {}, { expiresIn: 300, audience: "localhost" });
    expect(decodeProtectedHeader(stale).kid).toBe(read.activeSigningKeyId);
    await expect(verify(created.id, stale)).resolves.toBeDefined();
    const fresh = await getTenant(created.id);
    expect(fresh.activeSigningKeyId).toBe(rotated.id);
    const token = await signToken(fresh, {}, { expiresIn: 300, audience: "localhost" });
    expect(decodeProtectedHeader(token)).toMatchObject({ kid: rotated.id, alg: "ES256" });
    // Another tenant's key id is not a key of this tenant.
    const other = await createTenant({ name: "kid-other" });
    await expect(
      signToken({ id: other.id, activeSigningKeyId: rotated.id }, {}, { expiresIn: 60 }),
    ).rejects.toMatchObject({ code: "INTERNAL" });
  });

  it("stores private keys encrypted", async () => {
    const tenant = await createTenant({ name: "at-rest" });
    const { db } = await getDatabase();
    const [row] = await db.select().from(signingKeys).where(eq(signingKeys.tenantId, tenant.id));
    expect(row?.privateKeyEncrypted).toMatch(/^v1\./);
    expect(row?.privateKeyEncrypted).not.toContain('"d"');
    expect(JSON.stringify(row?.publicJwk)).not.toContain('"d"');
  });

  it("does not verify a token of one tenant with another tenant's keys", async () => {
    const a = await createTenant({ name: "a" });
    const b = await createTenant({ name: "b" });
    const token = await signToken(a.id, {}, { expiresIn: 60, audience: "localhost" });
    await expect(verify(b.id, token)).rejects.toThrow();
  });

  it("refuses to rotate an unknown tenant", async () => {
    await expect(rotateSigningKey("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "TENANT_NOT_FOUND",
    });
  });
});
