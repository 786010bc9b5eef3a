import { and, asc, eq } from "drizzle-orm";
import { executor } from "@/lib/db";
import { signingKeys, type SigningKeyRow } from "@/lib/db/schema";

export async function insertSigningKey(values: typeof signingKeys.$inferInsert): Promise<SigningKeyRow> {
  const db = await executor();
  const [row] = await db.insert(signingKeys).values(values).returning();
  return row as SigningKeyRow;
}

export async function findActiveSigningKey(tenantId: string): Promise<SigningKeyRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.tenantId, tenantId), eq(signingKeys.active, true)))
    .limit(1);
  return row;
}

export async function selectSigningKeys(tenantId: string): Promise<SigningKeyRow[]> {
  const db = await executor();
  return db
    .select()
    .from(signingKeys)
    .where(eq(signingKeys.tenantId, tenantId))
    .orderBy(asc(signingKeys.createdAt), asc(signingKeys.id));
}

export async function retireActiveSigningKey(tenantId: string): Promise<void> {
  const db = await executor();
  await db
    .update(signingKeys)
    .set({ active: false, retiredAt: new Date() })
    .where(and(eq(signingKeys.tenantId, tenantId), eq(signingKeys.active, true)));
}
