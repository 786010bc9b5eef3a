import { describe, expect, it } from "vitest";
import { createTestTenant } from "@/tests/helpers/tenants";
import { and, eq, sql } from "drizzle-orm";
import { tenantAnalytics } from "@/lib/console/analytics";
import { getDatabase } from "@/lib/db";
import { tenants } from "@/lib/db/schema";
import { queryAuditLogs } from "@/lib/audit-logs";
import { auditedStatement, listAuditEvents, recordAuditEvent, writeWithAuditEvent } from ".";

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

  it("writes a change and its record in one statement, the record only when the change happened", async () => {
    const { tenant } = await createTestTenant();
    const { db } = await getDatabase();
    const update = (name: string, from: string) =>
      db
        .update(tenants)
        .set({ name })
        .where(and(eq(tenants.id, tenant.id), eq(tenants.name, from)))
        .returning({ name: tenants.name });
    const event = { type: "user.signup.succeeded", actor: "u-1", details: {} };
    const missed = await writeWithAuditEvent(tenant.id, event, update("Renamed", "not its name"));
    expect(missed).toEqual([]);
    expect((await listAuditEvents(tenant.id, { type: event.type })).items).toEqual([]);
    const written = await writeWithAuditEvent(tenant.id, event, update("Renamed", tenant.name));
    expect(written).toEqual([{ name: "Renamed" }]);
    const { items } = await listAuditEvents(tenant.id, { type: event.type });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: "u-1" });
    // A counted event bumps the console's daily counter with it (a sign-up, here), and only once.
    const today = new Date().toISOString().slice(0, 10);
    const { totals } = await tenantAnalytics(tenant.id, { from: today, to: today, bucket: "day" });
    expect(totals.signups).toBe(1);
  });

  it("a statement built once writes the same record, for every shape of event, and nothing when it changed nothing", async () => {
    const { tenant } = await createTestTenant();
    let builds = 0;
    const rename = auditedStatement((db) => {
      builds++;
      return db
        .update(tenants)
        .set({ name: sql`${sql.placeholder("name")}::text` })
        .where(and(eq(tenants.id, sql.placeholder("id")), eq(tenants.name, sql.placeholder("from"))))
        .returning({ name: tenants.name });
    });
    const plain = {
      type: "tenant.renamed",
      actor: "operator:o-1",
      ip: "192.0.2.7",
      userAgent: "u".repeat(600),
      requestId: "req-9",
      details: { why: "test", nested: { n: 1 } },
      impersonatedBy: "admin-2",
    };
    expect(await rename(tenant.id, plain, { id: tenant.id, name: "One", from: "not its name" })).toEqual([]);
    expect(await rename(tenant.id, plain, { id: tenant.id, name: "One", from: tenant.name })).toEqual([
      { name: "One" },
    ]);
    // Counted events (a sign-up; a login with its active user) take the statement's other texts.
    const signup = { type: "user.signup.succeeded", actor: "u-7", details: {} };
    expect(await rename(tenant.id, signup, { id: tenant.id, name: "Two", from: "One" })).toEqual([
      { name: "Two" },
    ]);
    const login = { type: "session.created", actor: "u-7", details: { amr: ["passkey"] } };
    expect(await rename(tenant.id, login, { id: tenant.id, name: "Three", from: "Two" })).toEqual([
      { name: "Three" },
    ]);
    expect(builds).toBe(3);

    const [renamed] = (await listAuditEvents(tenant.id, { type: "tenant.renamed" })).items;
    const reference = await recordAuditEvent(tenant.id, { ...plain, type: "tenant.renamed.reference" });
    for (const key of ["actor", "ip", "userAgent", "requestId", "details"] as const) {
      expect(renamed?.[key]).toEqual(reference[key]);
    }
    expect(renamed?.userAgent).toHaveLength(512);
    expect(renamed?.details).toMatchObject({ impersonated_by: "admin-2", nested: { n: 1 } });
    expect((await listAuditEvents(tenant.id, { type: "user.signup.succeeded" })).items).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    const { totals, adoption } = await tenantAnalytics(tenant.id, { from: today, to: today, bucket: "day" });
    expect(totals.signups).toBe(1);
    expect(totals.logins.passkey).toBe(1);
    expect(adoption.activeUsers).toBe(1);
  });

  it("refuses a malformed cursor", async () => {
    const { tenant } = await createTestTenant();
    await expect(listAuditEvents(tenant.id, { cursor: "garbage" })).rejects.toMatchObject({
      code: "AUDIT_CURSOR_INVALID",
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
