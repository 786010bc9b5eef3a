import type { EmailRow } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import {
  selectEmail,
  selectEmailByAddress,
  selectPrimaryAddresses,
  selectPrimaryEmail,
  selectUserEmails,
  selectUserIdsByAddressFragment,
} from "./store";

/** The tenant's address with this id (with `lock`, its row locked until the transaction ends). */
export function findEmail(
  tenantId: string,
  emailId: string,
  options: { lock?: boolean } = {},
): Promise<EmailRow | undefined> {
  return selectEmail(tenantId, emailId, options);
}

/** The address (already lower-cased) in the tenant, whoever holds it. */
export function findEmailByAddress(tenantId: string, address: string): Promise<EmailRow | undefined> {
  return selectEmailByAddress(tenantId, address);
}

/** The user's primary address. */
export function findPrimaryEmail(tenantId: string, userId: string): Promise<EmailRow | undefined> {
  return selectPrimaryEmail(tenantId, userId);
}

/** The user's addresses, oldest first. */
export function findUserEmails(tenantId: string, userId: string): Promise<EmailRow[]> {
  return selectUserEmails(tenantId, userId);
}

/*
 * Batch look-ups by address for readers that show or search users by email (the audit log API): one
 * query each, whatever the number of users.
 */

/** Each of the users' primary address, by user id (users without one are left out). */
export async function primaryAddressesOf(tenantId: string, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await selectPrimaryAddresses(tenantId, userIds);
  return new Map(rows.map((row) => [row.userId, row.address]));
}

/** The ids of at most `limit` users holding an address that contains `fragment` (case-insensitive). */
export function userIdsByAddressFragment(
  tenantId: string,
  fragment: string,
  limit: number,
): Promise<string[]> {
  return selectUserIdsByAddressFragment(tenantId, fragment, limit);
}

/** The user's primary address, when it is verified (where account notices may go). */
export async function verifiedPrimaryAddress(tenant: Tenant, userId: string): Promise<string | undefined> {
  const primary = (await selectUserEmails(tenant.id, userId)).find((row) => row.isPrimary);
  return primary?.verified ? primary.address : undefined;
}
