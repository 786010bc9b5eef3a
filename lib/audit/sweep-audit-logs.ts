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

const SWEEPER = Symbol.for("sesame.auditLogSweeper");
type Holder = { [SWEEPER]?: () => void };

/**
 * Runs sweepExpiredAuditLogs in the background of this process: a first sweep 30 to 90 s after start,
 * then every `intervalMs` plus up to a minute of jitter (instances drift apart). The timer is unref'd
 * (it never keeps the process alive) and a failed sweep is logged, never thrown. Started once per
 * process (later calls return the running sweeper's stop function); the returned function stops it.
 */
export function startAuditLogSweeper(intervalMs = 10 * 60_000): () => void {
  const holder = globalThis as Holder;
  if (holder[SWEEPER]) return holder[SWEEPER];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => void run(), delayMs + Math.random() * 60_000);
    timer.unref();
  };
  const run = async () => {
    try {
      const { deleted } = await sweepExpiredAuditLogs();
      if (deleted > 0) getLogger().info({ deleted }, "expired audit log events deleted");
    } catch (error) {
      getLogger().error({ err: error }, "audit log retention sweep failed");
    } finally {
      if (!stopped) schedule(intervalMs);
    }
  };
  schedule(30_000);
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    delete holder[SWEEPER];
  };
  holder[SWEEPER] = stop;
  return stop;
}
