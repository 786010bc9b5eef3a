import { getLogger } from "@/lib/log";
import { entriesOf, selectionOf, type AuditLogEntry, type AuditLogFilter } from "./audit-log-entries";
import { auditLogCsvHeader, auditLogCsvRecord } from "./csv";
import { auditLogBatch } from "@/lib/audit";

const DEFAULT_BATCH = 1000;

/**
 * The filter's whole selection as CSV (header row first, newest first), in constant memory: the stream
 * reads one batch of `batchSize` rows by keyset (the insertion sequence) each time its reader wants more,
 * so at most a batch or two is held whatever the row count. Events added while it runs are not included
 * (they are newer than the first batch); events swept meanwhile may be missing. A bad filter fails here,
 * before anything is streamed. `view` shapes each entry before it is written (the console leaves out what
 * the operator's role may not read).
 */
export async function exportAuditLogs(
  tenantId: string,
  filter: AuditLogFilter,
  options: {
    batchSize?: number;
    /** Completes each batch's entries before they are written (the console names its operators). */
    present?: (entries: AuditLogEntry[]) => Promise<AuditLogEntry[]>;
  } = {},
): Promise<ReadableStream<Uint8Array>> {
  const selection = await selectionOf(tenantId, filter);
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const encoder = new TextEncoder();
  let beforeSeq: number | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(auditLogCsvHeader()));
      },
      async pull(controller) {
        try {
          const rows = await auditLogBatch(tenantId, selection, { beforeSeq, limit: batchSize });
          if (rows.length > 0) {
            beforeSeq = rows.at(-1)!.seq;
            const entries = await entriesOf(tenantId, rows);
            const presented = options.present ? await options.present(entries) : entries;
            controller.enqueue(encoder.encode(presented.map(auditLogCsvRecord).join("")));
          }
          if (rows.length < batchSize) controller.close();
        } catch (error) {
          getLogger().error({ err: error, tenantId }, "audit log export failed");
          controller.error(error);
        }
      },
    },
    // One batch queued ahead of the reader at most.
    { highWaterMark: 1 },
  );
}
