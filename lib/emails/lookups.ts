import { and, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { executor, likePattern } from "@/lib/db";
import { emails } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import { selectUserEmails } from "./store";

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
  const pattern = likePattern(fragment);
  const rows = await db
    .selectDistinct({ userId: emails.userId })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), ilike(emails.address, pattern)))
    .limit(limit);
  return rows.map((row) => row.userId);
}

/**
 * A condition on a user's id: the user holds an address containing `fragment` (lower-case), for the admin
 * list's search (lib/users filters its page and count with it in the database).
 */
export function holdsAddressLike(tenantId: string, fragment: string): (userId: AnyPgColumn) => SQL {
  return (userId) =>
    sql`exists (select 1 from ${emails} where ${emails.userId} = ${userId} and ${emails.tenantId} = ${tenantId} and ${emails.address} like ${likePattern(fragment)})`;
}

/** The user's primary address, when it is verified (where account notices may go). */
export async function verifiedPrimaryAddress(tenant: Tenant, userId: string): Promise<string | undefined> {
  const primary = (await selectUserEmails(tenant.id, userId)).find((row) => row.isPrimary);
  return primary?.verified ? primary.address : undefined;
}
