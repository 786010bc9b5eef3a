import { AppError } from "@/lib/errors";
import { selectTenant } from "./store";
import type { Tenant } from "./tenant";

/** The tenant with this id; TENANT_NOT_FOUND when there is none (or the id is not a UUID). */
export async function getTenant(tenantId: string): Promise<Tenant> {
  const tenant = await selectTenant(tenantId);
  if (!tenant) throw new AppError("TENANT_NOT_FOUND", "Tenant not found");
  return tenant;
}

/**
 * The tenant with its active signing key's id; undefined for an unknown id or the system tenant. On the
 * embedded database, read outside a transaction, from the process's cache when there.
 */
export function findTenant(tenantId: string): Promise<Tenant | undefined> {
  return selectTenant(tenantId);
}
