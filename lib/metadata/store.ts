import { and, eq, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { userMetadata, type MetadataObject, type UserMetadataRow } from "@/lib/db/schema";

export async function findMetadataRow(
  tenantId: string,
  userId: string,
): Promise<UserMetadataRow | undefined> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(userMetadata)
    .where(and(eq(userMetadata.tenantId, tenantId), eq(userMetadata.userId, userId)))
    .limit(1);
  return row;
}

export interface MetadataColumns {
  publicMetadata: MetadataObject | null;
  privateMetadata: MetadataObject | null;
  unsafeMetadata: MetadataObject | null;
}

/** Writes the user's three objects (null = none), creating the row on first use. */
export async function upsertMetadataRow(
  tenantId: string,
  userId: string,
  values: MetadataColumns,
): Promise<void> {
  const db = await executor();
  await db
    .insert(userMetadata)
    .values({ tenantId, userId, ...values })
    .onConflictDoUpdate({ target: userMetadata.userId, set: { ...values, updatedAt: sql`now()` } });
}

/** Removes the user's metadata row (every kind cleared). */
export async function deleteMetadataRow(tenantId: string, userId: string): Promise<void> {
  const db = await executor();
  await db
    .delete(userMetadata)
    .where(and(eq(userMetadata.tenantId, tenantId), eq(userMetadata.userId, userId)));
}
