import { and, asc, eq, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { webauthnTransactions, type WebauthnTransactionRow } from "@/lib/db/schema";

/** Inserts a transaction; undefined when the user already has one with this identifier. */
export async function insertTransaction(
  values: typeof webauthnTransactions.$inferInsert,
): Promise<WebauthnTransactionRow | undefined> {
  const db = await executor();
  const [row] = await db.insert(webauthnTransactions).values(values).onConflictDoNothing().returning();
  return row;
}

export async function completeTransaction(
  tenantId: string,
  id: string,
): Promise<WebauthnTransactionRow | undefined> {
  const db = await executor();
  const [row] = await db
    .update(webauthnTransactions)
    .set({ completedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(webauthnTransactions.tenantId, tenantId), eq(webauthnTransactions.id, id)))
    .returning();
  return row;
}

export async function selectUserTransactions(
  tenantId: string,
  userId: string,
): Promise<WebauthnTransactionRow[]> {
  const db = await executor();
  return db
    .select()
    .from(webauthnTransactions)
    .where(and(eq(webauthnTransactions.tenantId, tenantId), eq(webauthnTransactions.userId, userId)))
    .orderBy(asc(webauthnTransactions.createdAt), asc(webauthnTransactions.id));
}
