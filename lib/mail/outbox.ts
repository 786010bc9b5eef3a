import type { MailOutboxRow } from "@/lib/db/schema";
import { selectOutboxMail } from "./store";

/** The tenant's dev outbox, newest first (the console and tests read it). */
export function listOutbox(
  tenantId: string,
  options: { to?: string; limit?: number } = {},
): Promise<MailOutboxRow[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
  return selectOutboxMail(tenantId, { ...(options.to ? { to: options.to } : {}), limit });
}
