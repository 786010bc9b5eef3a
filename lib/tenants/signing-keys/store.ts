import { and, asc, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { executor } from "@/lib/db";
import { forgetTenants } from "../cache";
import { signingKeys, type SigningKeyRow } from "@/lib/db/schema";

export async function insertSigningKey(values: typeof signingKeys.$inferInsert): Promise<SigningKeyRow> {
  forgetTenants(); // a tenant read names its active key
  const db = await executor();
  const [row] = await db.insert(signingKeys).values(values).returning();
  forgetTenants();
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

/** The tenant's signing key with this id (a key row never changes, apart from being retired). */
export async function findSigningKey(tenantId: string, keyId: string): Promise<SigningKeyRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(signingKeys)
    .where(and(eq(signingKeys.tenantId, tenantId), eq(signingKeys.id, keyId)))
    .limit(1);
  return row;
}

/**
 * The id of the tenant's active signing key as a scalar subquery, for the tenant read: the tenant
 * carries it, so signing a token costs no statement of its own.
 */
export function activeSigningKeyIdOf(tenantId: string | Placeholder): SQL<string | null> {
  return sql<string | null>`(select ${signingKeys.id} from ${signingKeys}
    where ${signingKeys.tenantId} = ${tenantId}::uuid and ${signingKeys.active})`;
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
  forgetTenants();
  const db = await executor();
  await db
    .update(signingKeys)
    .set({ active: false, retiredAt: new Date() })
    .where(and(eq(signingKeys.tenantId, tenantId), eq(signingKeys.active, true)));
  forgetTenants();
}
