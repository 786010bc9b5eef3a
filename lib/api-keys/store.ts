import { and, asc, eq, isNull } from "drizzle-orm";
import { executor } from "@/lib/db";
import { apiKeys, type ApiKeyRow } from "@/lib/db/schema";
import { UUID_PATTERN } from "@/lib/tenants/tenant";

export async function insertApiKey(values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const db = await executor();
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row as ApiKeyRow;
}

/**
 * The one lookup that is not scoped by tenant: an Authenticator API key *names* its tenant, so the
 * key is found by its digest first and the caller then checks tenant and scope.
 */
export async function findApiKeyByHash(secretHash: string): Promise<ApiKeyRow | undefined> {
  const db = await executor();
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.secretHash, secretHash)).limit(1);
  return row;
}

export async function selectApiKeys(tenantId: string): Promise<ApiKeyRow[]> {
  const db = await executor();
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.tenantId, tenantId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

export async function markApiKeyRevoked(tenantId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  if (!UUID_PATTERN.test(keyId)) return undefined;
  const db = await executor();
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

export async function findApiKey(tenantId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  if (!UUID_PATTERN.test(keyId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
    .limit(1);
  return row;
}

export async function touchApiKey(tenantId: string, keyId: string, at: Date): Promise<void> {
  const db = await executor();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)));
}
