import { listApiKeys } from "@/lib/api-keys";
import { DEFAULT_BRANDING } from "@/lib/settings/defaults";
import type { Tenant } from "@/lib/tenants";

export type ChecklistItem = "origins" | "api_key" | "first_user" | "branding";

/**
 * What a new tenant still lacks (the overview's checklist, shown until every item is done): its app's
 * origins (an origin other than Sesame's own, which the wizard puts in when none is given), an active API
 * key, a first user, and branding of its own (any branding field changed from the defaults).
 */
export async function tenantChecklist(
  tenant: Pick<Tenant, "id" | "origins" | "branding">,
  users: number,
  sesameOrigin: string,
): Promise<Record<ChecklistItem, boolean>> {
  const keys = await listApiKeys(tenant.id);
  return {
    origins: tenant.origins.some((origin) => origin !== sesameOrigin),
    api_key: keys.some((key) => !key.revokedAt),
    first_user: users > 0,
    branding: (Object.keys(DEFAULT_BRANDING) as (keyof typeof DEFAULT_BRANDING)[]).some(
      (field) => tenant.branding[field] !== DEFAULT_BRANDING[field],
    ),
  };
}
