import { describe, expect, it } from "vitest";
import { createTestTenant } from "@/tests/helpers/tenants";
import { listAuditEvents, queryAuditLogs, recordAuditEvent } from ".";

describe("audit log", () => {
  it("records tenant, type, actor, IP, user agent, request id and details", async () => {
    const { tenant } = await createTestTenant();
    const row = await recordAuditEvent(tenant.id, {
      type: "passkey.login.failed",
      actor: "user-1",
      ip: "127.0.0.1",
      userAgent: "vitest",
      requestId: "req-1",
      details: { reason: "counter regression" },
    });
    expect(row).toMatchObject({
      tenantId: tenant.id,
      type: "passkey.login.failed",
      actor: "user-1",
      ip: "127.0.0.1",
      userAgent: "vitest",
      requestId: "req-1",
      details: { reason: "counter regression" },
    });
  });

  it("pages newest first with an opaque cursor, without gaps or repeats", async () => {
    const { tenant } = await createTestTenant();
    for (let i = 0; i < 7; i++) await recordAuditEvent(tenant.id, { type: "test.event", details: { i } });
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listAuditEvents(tenant.id, { limit: 3, cursor, type: "test.event" });
      seen.push(...page.items.map((item) => item.details.i as number));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0]);
  });

  it("filters by type and keeps tenants apart", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    await recordAuditEvent(a.tenant.id, { type: "only.a" });
    await recordAuditEvent(b.tenant.id, { type: "only.b" });
    const pageA = await listAuditEvents(a.tenant.id);
    expect(pageA.items.map((item) => item.type)).toContain("only.a");
    expect(pageA.items.map((item) => item.type)).not.toContain("only.b");
    expect((await listAuditEvents(a.tenant.id, { type: "only.b" })).items).toEqual([]);
  });

  it("provisioning a tenant is itself audited", async () => {
    const { tenant } = await createTestTenant();
    const { items } = await listAuditEvents(tenant.id, { type: "tenant.created" });
    expect(items).toHaveLength(1);
    expect(items[0]?.actor).toBe("test");
  });

  it("clips over-long text fields instead of storing them whole", async () => {
    const { tenant } = await createTestTenant();
    const row = await recordAuditEvent(tenant.id, { type: "x", userAgent: "u".repeat(5000) });
    expect(row.userAgent).toHaveLength(512);
  });

  it("refuses a malformed cursor", async () => {
    const { tenant } = await createTestTenant();
    await expect(listAuditEvents(tenant.id, { cursor: "garbage" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("lists entries with their recorded actor, filtered by type prefix and by that actor", async () => {
    const { tenant } = await createTestTenant();
    await recordAuditEvent(tenant.id, { type: "webhook.created", actor: "operator:abc" });
    await recordAuditEvent(tenant.id, { type: "user.created", actor: "system" });
    const listing = await queryAuditLogs(tenant.id, { types: ["webhook.*"], actorUserId: "operator:abc" });
    expect(listing.total).toBe(1);
    expect(listing.entries[0]).toMatchObject({
      type: "webhook.created",
      actor: "operator:abc",
      actorUserId: null,
    });
  });
});
