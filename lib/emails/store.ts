import { and, asc, count, eq, ilike, inArray, ne, sql } from "drizzle-orm";
import { executor, likePattern } from "@/lib/db";
import { emails, type EmailRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

/** The user's addresses, oldest first. */
export async function selectUserEmails(tenantId: string, userId: string): Promise<EmailRow[]> {
  const db = await executor();
  return db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.userId, userId)))
    .orderBy(asc(emails.createdAt), asc(emails.id));
}

export async function countUserEmails(tenantId: string, userId: string): Promise<number> {
  const db = await executor();
  const [row] = await db
    .select({ n: count() })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.userId, userId)));
  return row?.n ?? 0;
}

/** One address by id; `lock` takes a row lock until the transaction ends (serialises passcodes per address). */
export async function selectEmail(
  tenantId: string,
  emailId: string,
  options: { lock?: boolean } = {},
): Promise<EmailRow | undefined> {
  if (!UUID_PATTERN.test(emailId)) return undefined;
  const db = await executor();
  const query = db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.id, emailId)))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

/** The address (already lower-cased) in the tenant, whoever holds it. */
export async function selectEmailByAddress(tenantId: string, address: string): Promise<EmailRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.address, address)))
    .limit(1);
  return row;
}

/** Inserts the address; undefined when the tenant already has it (a concurrent insert won). */
export async function insertEmail(values: typeof emails.$inferInsert): Promise<EmailRow | undefined> {
  const db = await executor();
  const [row] = await db.insert(emails).values(values).onConflictDoNothing().returning();
  return row;
}

export async function deleteEmailRow(tenantId: string, emailId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .delete(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.id, emailId)))
    .returning({ id: emails.id });
  return rows.length === 1;
}

/** Makes the address the user's primary one: the old primary is cleared first (one primary per user). */
export async function setPrimaryEmailRow(tenantId: string, userId: string, emailId: string): Promise<void> {
  const db = await executor();
  await db
    .update(emails)
    .set({ isPrimary: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(emails.tenantId, tenantId),
        eq(emails.userId, userId),
        eq(emails.isPrimary, true),
        ne(emails.id, emailId),
      ),
    );
  await db
    .update(emails)
    .set({ isPrimary: true, updatedAt: sql`now()` })
    .where(and(eq(emails.tenantId, tenantId), eq(emails.userId, userId), eq(emails.id, emailId)));
}

export async function markEmailVerified(tenantId: string, emailId: string): Promise<void> {
  const db = await executor();
  await db
    .update(emails)
    .set({ verified: true, updatedAt: sql`now()` })
    .where(and(eq(emails.tenantId, tenantId), eq(emails.id, emailId)));
}

/** The user's primary address, if any. */
export async function selectPrimaryEmail(tenantId: string, userId: string): Promise<EmailRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), eq(emails.userId, userId), eq(emails.isPrimary, true)))
    .limit(1);
  return row;
}

/** The users' primary addresses (users without one are left out). */
export async function selectPrimaryAddresses(
  tenantId: string,
  userIds: string[],
): Promise<{ userId: string; address: string }[]> {
  const db = await executor();
  return db
    .select({ userId: emails.userId, address: emails.address })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), inArray(emails.userId, userIds), eq(emails.isPrimary, true)));
}

/** The ids of at most `limit` users holding an address that contains `fragment` (case-insensitive). */
export async function selectUserIdsByAddressFragment(
  tenantId: string,
  fragment: string,
  limit: number,
): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .selectDistinct({ userId: emails.userId })
    .from(emails)
    .where(and(eq(emails.tenantId, tenantId), ilike(emails.address, likePattern(fragment))))
    .limit(limit);
  return rows.map((row) => row.userId);
}
