import { BadRequest } from "@/lib/errors";
import type { AuditLogRow } from "@/lib/db/schema";
import { selectAuditLogs, type AuditPosition } from "./store";

export interface AuditPage {
  items: AuditLogRow[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  nextCursor: string | null;
}

function encodeCursor(row: AuditLogRow): string {
  const position: AuditPosition = { createdAt: row.createdAt.toISOString(), id: row.id };
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

function decodeCursor(cursor: string): AuditPosition {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as AuditPosition;
    if (typeof value.id === "string" && !Number.isNaN(Date.parse(value.createdAt))) return value;
  } catch {
    // fall through
  }
  throw new BadRequest("Invalid cursor");
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
    before: options.cursor ? decodeCursor(options.cursor) : undefined,
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? encodeCursor(items.at(-1) as AuditLogRow) : null };
}
