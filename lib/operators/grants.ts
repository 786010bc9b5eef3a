import { AppError } from "@/lib/errors";
import { findTenant } from "@/lib/tenants";

/** Every tenant to grant exists. */
export async function checkTenants(tenantIds: string[]): Promise<void> {
  for (const tenantId of tenantIds) {
    if (!(await findTenant(tenantId))) throw new AppError("TENANT_NOT_FOUND", `tenant ${tenantId} not found`);
  }
}
