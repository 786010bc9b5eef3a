import { AppError } from "@/lib/errors";
import type { AuditLogRow } from "@/lib/db/schema";
import { selectAuditLogs } from "./store";

export interface AuditPage {
  items: AuditLogRow[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  nextCursor: string | null;
}

// The cursor is opaque to clients; inside it is the sequence number of the last row they saw.
function encodeCursor(row: AuditLogRow): string {
  return Buffer.from(`seq:${row.seq}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw new AppError("AUDIT_CURSOR_INVALID", "Invalid cursor");
  return Number(match[1]);
}

/** One page of the tenant's audit log, newest first, with an opaque cursor for the next page. */
export async function listAuditEvents(
  tenantId: string,
  options: { limit?: number; cursor?: string; type?: string } = {},
): Promise<AuditPage> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await selectAuditLogs(tenantId, {
    limit: limit + 1,
    type: options.type,
    beforeSeq: options.cursor ? decodeCursor(options.cursor) : undefined,
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items.at(-1) as AuditLogRow) : null };
}
