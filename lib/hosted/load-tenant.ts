import "server-only";
import { cache } from "react";
import { AppError } from "@/lib/errors";
import { getTenant, type Tenant } from "@/lib/tenants";

/**
 * The tenant of a hosted page, read once per request (the layout and the page share it); undefined for an
 * unknown or malformed id. Other errors (database down) propagate to the error boundary.
 */
export const loadHostedTenant = cache(async (tenantId: string): Promise<Tenant | undefined> => {
  try {
    return await getTenant(tenantId);
  } catch (error) {
    if (error instanceof AppError && error.code === "TENANT_NOT_FOUND") return undefined;
    throw error;
  }
});
