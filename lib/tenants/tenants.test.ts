import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { getDatabase, transaction } from "@/lib/db";
import { createTenant, getTenant, listTenants, rotateSigningKey, updateTenant } from ".";

describe("tenants", () => {
  it("creates a tenant with the documented defaults", async () => {
    const tenant = await createTenant({ name: "Defaults" });
    expect(tenant.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tenant).toMatchObject({
      name: "Defaults",
      rpId: "localhost",
      rpName: "Defaults",
      origins: ["http://localhost:3000"],
      challengeTtlSeconds: 300,
      requestTtlSeconds: 120,
      sessionLifetimeSeconds: 3600,
      passcodeTtlSeconds: 300,
      tokenLifetimeSeconds: 300,
      signingAlgorithm: "RS256",
    });
    expect(await getTenant(tenant.id)).toEqual(tenant);
  });

  it("keeps read tenants on the embedded database only, and a change is read at once", async () => {
    const tenant = await createTenant({ name: "Cached" });
    const first = await getTenant(tenant.id);
    const again = await getTenant(tenant.id);
    const embedded = (await getDatabase()).kind === "pglite";
    expect(again === first).toBe(embedded);
    // A cached tenant is frozen: no caller can change what the next one reads.
    expect(Object.isFrozen(again.platform)).toBe(embedded);
    await updateTenant(tenant.id, { name: "Renamed" });
    expect((await getTenant(tenant.id)).name).toBe("Renamed");
    const rotated = await rotateSigningKey(tenant.id);
    expect((await getTenant(tenant.id)).activeSigningKeyId).toBe(rotated.id);
    // Read inside a transaction (possibly uncommitted): never kept.
    const inside = await transaction(() => getTenant(tenant.id));
    expect(inside === (await getTenant(tenant.id))).toBe(false);
  });

  it("takes the RP ID from the first origin when none is given", async () => {
    const tenant = await createTenant({ name: "Shop", origins: ["https://login.shop.example"] });
    expect(tenant.rpId).toBe("login.shop.example");
    expect(tenant.origins).toEqual(["https://login.shop.example"]);
  });

  it("normalises origins and accepts subdomains of the RP ID", async () => {
    const tenant = await createTenant({
      name: "Sub",
      rpId: "example.com",
      origins: ["https://example.com/", "https://app.example.com:8443"],
    });
    expect(tenant.origins).toEqual(["https://example.com", "https://app.example.com:8443"]);
  });

  it.each([
    [{ name: "" }, "tenant.name"],
    [{ name: "x", rpId: "https://example.com" }, "tenant.rpId"],
    [{ name: "x", origins: ["https://example.com/path"] }, "tenant.origins.0"],
    [{ name: "x", origins: ["ftp://example.com"] }, "tenant.origins.0"],
    [{ name: "x", rpId: "example.com", origins: ["https://evil.test"] }, "not on the RP ID"],
    [{ name: "x", passcodeTtlSeconds: 601 }, "tenant.passcodeTtlSeconds"],
    [{ name: "x", sessionLifetimeSeconds: 10 }, "tenant.sessionLifetimeSeconds"],
    [{ name: "x", signingAlgorithm: "HS256" }, "tenant.signingAlgorithm"],
  ])("refuses %j and stores nothing", async (input, detail) => {
    // A name of its own: other test files create tenants in the same database at the same time.
    const name = input.name === "x" ? `refused-${randomUUID()}` : input.name;
    const error = await createTenant({ ...input, name } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("VALIDATION_FAILED");
    expect((error as AppError).details.join("\n")).toContain(detail);
    expect((await listTenants()).filter((tenant) => tenant.name === name)).toEqual([]);
  });

  it("updates settings and keeps the rest", async () => {
    const tenant = await createTenant({ name: "Before" });
    const updated = await updateTenant(tenant.id, { name: "After", sessionLifetimeSeconds: 7200 });
    expect(updated).toMatchObject({
      id: tenant.id,
      name: "After",
      sessionLifetimeSeconds: 7200,
      rpId: "localhost",
    });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(tenant.updatedAt.getTime());
  });

  it("refuses an invalid update without changing anything", async () => {
    const tenant = await createTenant({ name: "Stable" });
    await expect(updateTenant(tenant.id, { name: "Changed", passcodeTtlSeconds: 900 })).rejects.toMatchObject(
      {
        code: "VALIDATION_FAILED",
      },
    );
    await expect(updateTenant(tenant.id, { rpId: "example.com" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    // Each bound is valid alone; together the username settings contradict each other.
    await expect(
      updateTenant(tenant.id, { platform: { username: { minLength: 10, maxLength: 5 } } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(
      updateTenant(tenant.id, { platform: { username: { minLength: 40 } } }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await getTenant(tenant.id)).toEqual(tenant);
  });

  it("answers TENANT_NOT_FOUND for an unknown or malformed tenant id", async () => {
    await expect(getTenant("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "TENANT_NOT_FOUND",
    });
    await expect(getTenant("nope")).rejects.toMatchObject({ code: "TENANT_NOT_FOUND" });
    await expect(updateTenant("nope", { name: "x" })).rejects.toMatchObject({ code: "TENANT_NOT_FOUND" });
  });
});
