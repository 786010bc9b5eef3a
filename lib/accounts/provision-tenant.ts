import { createApiKey, type ApiKeyScope } from "@/lib/api-keys";
import { recordAuditEvent } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { createTenant } from "@/lib/tenants";
import type { CreateTenantInput } from "@/lib/tenants";
import type { Tenant } from "@/lib/tenants";

export interface ProvisionedTenant {
  tenant: Tenant;
  /** One new key per scope, shown this once. */
  keys: Record<ApiKeyScope, string>;
}

/** A tenant, its signing key and one API key per scope, in one transaction. */
export async function provisionTenant(input: CreateTenantInput, actor: string): Promise<ProvisionedTenant> {
  return transaction(async () => {
    const tenant = await createTenant(input);
    const keys = {} as Record<ApiKeyScope, string>;
    for (const scope of ["admin", "passkey", "authenticator"] as const) {
      keys[scope] = (await createApiKey(tenant.id, { name: `${scope} key`, scopes: [scope] })).secret;
    }
    await recordAuditEvent(tenant.id, { type: "tenant.created", actor, details: { name: tenant.name } });
    return { tenant, keys };
  });
}
