import { getLogger } from "@/lib/log";
import { listTenants } from "@/lib/tenants";
import { deleteAuditLogsBefore } from "./store";

const DAY_MS = 86_400_000;

export interface SweepOptions {
  /** The sweep's "now" (tests). */
  now?: Date;
  /** Rows per DELETE statement. */
  batchSize?: number;
  /** At most this many statements per tenant and sweep; the next sweep goes on (no tenant starves the rest). */
  maxBatchesPerTenant?: number;
}

/**
 * Deletes every tenant's audit events older than the tenant's `auditLog.retentionDays`, in bounded
 * batches (one short transaction each). Safe beside another instance's sweep: rows one holds, the other
 * skips. A tenant that fails is logged and the others are still swept. Returns how many rows went.
 */
export async function sweepExpiredAuditLogs(options: SweepOptions = {}): Promise<{ deleted: number }> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 5000;
  const maxBatches = options.maxBatchesPerTenant ?? 100;
  let deleted = 0;
  for (const tenant of await listTenants()) {
    const before = new Date(now.getTime() - tenant.auditLog.retentionDays * DAY_MS);
    try {
      for (let batch = 0; batch < maxBatches; batch++) {
        const count = await deleteAuditLogsBefore(tenant.id, before, batchSize);
        deleted += count;
        if (count < batchSize) break;
      }
    } catch (error) {
      getLogger().error({ err: error, tenantId: tenant.id }, "audit log retention sweep failed for a tenant");
    }
  }
  return { deleted };
}
