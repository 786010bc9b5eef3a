import { describe, expect, it } from "vitest";
import { getTenant, updateTenant } from "@/lib/tenants";
import { createTestTenant } from "@/tests/helpers/tenants";
import { listAuditEvents, sweepExpiredAuditLogs } from ".";
import { seedAuditLogs } from "./test-support";

const countOf = async (tenantId: string, type: string) =>
  (await listAuditEvents(tenantId, { type, limit: 200 })).items.length;

describe("audit log retention", () => {
  it("defaults to 90 days and accepts 1 to 3650 days, refusing anything else unchanged", async () => {
    const { tenant } = await createTestTenant();
    expect(tenant.auditLog).toEqual({ retentionDays: 90 });
    expect(
      (await updateTenant(tenant.id, { auditLog: { retentionDays: 3650 } })).auditLog.retentionDays,
    ).toBe(3650);
    for (const retentionDays of [0, 3651, 1.5, -1]) {
      await expect(updateTenant(tenant.id, { auditLog: { retentionDays } })).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
    expect((await getTenant(tenant.id)).auditLog.retentionDays).toBe(3650);
    expect((await updateTenant(tenant.id, { auditLog: { retentionDays: 1 } })).auditLog.retentionDays).toBe(
      1,
    );
  });

  it("deletes each tenant's events older than its retention, in batches, and keeps the rest", async () => {
    const a = (await createTestTenant({ auditLog: { retentionDays: 30 } })).tenant;
    const b = (await createTestTenant({ auditLog: { retentionDays: 365 } })).tenant;
    await seedAuditLogs(a.id, 10, { type: "test.old", ageDays: 40 });
    await seedAuditLogs(a.id, 5, { type: "test.recent", ageDays: 29 });
    await seedAuditLogs(b.id, 7, { type: "test.old", ageDays: 40 });
    await seedAuditLogs(b.id, 4, { type: "test.ancient", ageDays: 400 });

    // Two sweeps at once (two instances): neither fails, each row goes once.
    const runs = await Promise.all([
      sweepExpiredAuditLogs({ batchSize: 3 }),
      sweepExpiredAuditLogs({ batchSize: 3 }),
    ]);
    expect(runs[0]!.deleted + runs[1]!.deleted).toBeGreaterThanOrEqual(14);

    expect(await countOf(a.id, "test.old")).toBe(0);
    expect(await countOf(a.id, "test.recent")).toBe(5);
    expect(await countOf(a.id, "tenant.created")).toBe(1);
    expect(await countOf(b.id, "test.old")).toBe(7);
    expect(await countOf(b.id, "test.ancient")).toBe(0);
  });

  it("bounds the work per tenant and sweep: the next sweep goes on", async () => {
    const { tenant } = await createTestTenant({ auditLog: { retentionDays: 1 } });
    await seedAuditLogs(tenant.id, 10, { type: "test.old", ageDays: 2 });
    await sweepExpiredAuditLogs({ batchSize: 2, maxBatchesPerTenant: 2 });
    expect(await countOf(tenant.id, "test.old")).toBe(6);
    await sweepExpiredAuditLogs({ batchSize: 5 });
    expect(await countOf(tenant.id, "test.old")).toBe(0);
  });
});
