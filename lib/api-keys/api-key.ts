import type { ApiKeyRow, ApiKeyScope } from "@/lib/db/schema";

export { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/db/enums";

/** An API key as listed: never the secret itself. */
export interface ApiKeyInfo {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export function toApiKeyInfo(row: ApiKeyRow): ApiKeyInfo {
  const { secretHash: _secretHash, ...info } = row;
  return info;
}
