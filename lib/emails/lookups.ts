import { and, eq, ilike, inArray } from "drizzle-orm";
import { executor } from "@/lib/db";
import { emails } from "@/lib/db/schema";

/*
 * Batch look-ups by address for readers that show or search users by email (the audit log API): one
 * query each, whatever the number of users.
 */

/** Each of the users' primary address, by user id (users without one are left out). */
export async function primaryAddressesOf(tenantId: string, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const db = await executor();
  const rows = await db
    .select({ userId: emails.userId, address: emails.address })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), inArray(emails.userId, userIds), eq(emails.isPrimary, true)));
  return new Map(rows.map((row) => [row.userId, row.address]));
}

/** The ids of at most `limit` users holding an address that contains `fragment` (case-insensitive). */
export async function userIdsByAddressFragment(
  tenantId: string,
  fragment: string,
  limit: number,
): Promise<string[]> {
  const db = await executor();
  const pattern = `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectDistinct({ userId: emails.userId })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), ilike(emails.address, pattern)))
    .limit(limit);
  return rows.map((row) => row.userId);
}
