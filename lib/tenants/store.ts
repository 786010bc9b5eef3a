import { and, asc, eq, getTableColumns, sql, type Placeholder } from "drizzle-orm";
import { executor, getDatabase, inTransaction } from "@/lib/db";
import { fixedStatement } from "@/lib/db/statement";
import { tenants, type TenantRow } from "@/lib/db/schema";
import { cachedTenant, forgetTenants, keepTenant, tenantCacheGeneration } from "./cache";
import { activeSigningKeyIdOf } from "./signing-keys/store";
import { UUID_PATTERN, toTenant, type Tenant } from "./tenant";

type NewTenant = typeof tenants.$inferInsert;

export async function insertTenant(values: NewTenant): Promise<Tenant> {
  const db = await executor();
  const [row] = await db.insert(tenants).values(values).returning();
  return toTenant(row as TenantRow);
}

/** The tenant's columns and its active signing key's id, as a tenant read carries them. */
const withSigningKeyId = (tenantId: string | Placeholder) => ({
  ...getTableColumns(tenants),
  activeSigningKeyId: activeSigningKeyIdOf(tenantId),
});

function toTenantWithKey(row: TenantRow & { activeSigningKeyId: string | null }): Tenant {
  const { activeSigningKeyId, ...tenant } = row;
  return { ...toTenant(tenant), activeSigningKeyId };
}

/** Every request's first read on Postgres: its SQL built once (lib/db/statement.ts). */
const tenantRead = fixedStatement((db) =>
  db
    .select(withSigningKeyId(sql.placeholder("tenantId")))
    .from(tenants)
    .where(and(eq(tenants.id, sql.placeholder("tenantId")), eq(tenants.system, false)))
    .limit(1),
);

/**
 * The tenant with its active signing key's id. On the embedded database, read outside a transaction,
 * from the process's cache when there (lib/tenants/cache.ts).
 */
export async function selectTenant(tenantId: string): Promise<Tenant | undefined> {
  if (!UUID_PATTERN.test(tenantId)) return undefined;
  const cacheable = !inTransaction() && (await getDatabase()).kind === "pglite";
  if (cacheable) {
    const cached = cachedTenant(tenantId);
    if (cached) return cached;
  }
  const generation = tenantCacheGeneration();
  const [row] = await tenantRead(await executor(), { tenantId });
  if (!row) return undefined;
  const found = toTenantWithKey(row);
  return cacheable ? keepTenant(found, generation) : found;
}

export async function selectTenants(): Promise<Tenant[]> {
  const db = await executor();
  const rows = await db
    .select()
    .from(tenants)
    .where(eq(tenants.system, false))
    .orderBy(asc(tenants.createdAt), asc(tenants.id));
  return rows.map(toTenant);
}

export async function updateTenantRow(
  tenantId: string,
  values: Partial<NewTenant>,
): Promise<Tenant | undefined> {
  if (!UUID_PATTERN.test(tenantId)) return undefined;
  forgetTenants();
  const db = await executor();
  const [row] = await db
    .update(tenants)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tenants.id, tenantId), eq(tenants.system, false)))
    .returning(withSigningKeyId(tenantId));
  forgetTenants();
  return row ? toTenantWithKey(row) : undefined;
}

/** The hidden system tenant (the console's), which selectTenant and selectTenants never return. */
export async function selectSystemTenant(): Promise<Tenant | undefined> {
  const db = await executor();
  const [row] = await db.select().from(tenants).where(eq(tenants.system, true)).limit(1);
  return row ? toTenant(row) : undefined;
}

/** Moves the system tenant to this RP ID and origins; the row as updated. */
export async function updateSystemTenantParty(
  tenantId: string,
  party: { rpId: string; origins: string[] },
): Promise<Tenant | undefined> {
  const db = await executor();
  const [row] = await db
    .update(tenants)
    .set({ ...party, updatedAt: new Date() })
    .where(and(eq(tenants.id, tenantId), eq(tenants.system, true)))
    .returning();
  return row ? toTenant(row) : undefined;
}

/** Inserts the system tenant; undefined when another instance inserted it first. */
export async function insertSystemTenant(values: NewTenant): Promise<Tenant | undefined> {
  const db = await executor();
  const [row] = await db
    .insert(tenants)
    .values({ ...values, system: true })
    .onConflictDoNothing()
    .returning();
  return row ? toTenant(row) : undefined;
}
