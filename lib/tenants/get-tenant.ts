import { NotFound } from "@/lib/errors";
import { findTenant } from "./store";
import type { Tenant } from "./tenant";

/** The tenant with this id; NotFound when there is none (or the id is not a UUID). */
export async function getTenant(tenantId: string): Promise<Tenant> {
  const tenant = await findTenant(tenantId);
  if (!tenant) throw new NotFound("Tenant not found");
  return tenant;
}
