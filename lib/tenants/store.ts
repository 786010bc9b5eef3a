import { and, asc, eq, getTableColumns } from "drizzle-orm";
import { executor } from "@/lib/db";
import { tenants, type TenantRow } from "@/lib/db/schema";
import { activeSigningKeyIdOf } from "./signing-keys/store";
import { UUID_PATTERN, toTenant, type Tenant } from "./tenant";

type NewTenant = typeof tenants.$inferInsert;

export async function insertTenant(values: NewTenant): Promise<Tenant> {
  const db = await executor();
  const [row] = await db.insert(tenants).values(values).returning();
  return toTenant(row as TenantRow);
}

export async function findTenant(tenantId: string): Promise<Tenant | undefined> {
  if (!UUID_PATTERN.test(tenantId)) return undefined;
  const db = await executor();
  const [row] = await db
    .select({ ...getTableColumns(tenants), activeSigningKeyId: activeSigningKeyIdOf(tenantId) })
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), eq(tenants.system, false)))
    .limit(1);
  if (!row) return undefined;
  const { activeSigningKeyId, ...tenant } = row;
  return { ...toTenant(tenant), activeSigningKeyId };
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
  const db = await executor();
  const [row] = await db
    .update(tenants)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tenants.id, tenantId), eq(tenants.system, false)))
    .returning({ ...getTableColumns(tenants), activeSigningKeyId: activeSigningKeyIdOf(tenantId) });
  if (!row) return undefined;
  const { activeSigningKeyId, ...tenant } = row;
  return { ...toTenant(tenant), activeSigningKeyId };
}
