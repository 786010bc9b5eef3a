import { getTenant } from "@/lib/tenants/get-tenant";
import { toApiKeyInfo, type ApiKeyInfo } from "./api-key";
import { selectApiKeys } from "./store";

export async function listApiKeys(tenantId: string): Promise<ApiKeyInfo[]> {
  const tenant = await getTenant(tenantId);
  return (await selectApiKeys(tenant.id)).map(toApiKeyInfo);
}
