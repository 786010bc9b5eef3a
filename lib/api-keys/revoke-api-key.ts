import { AppError } from "@/lib/errors";
import { toApiKeyInfo, type ApiKeyInfo } from "./api-key";
import { findApiKey, markApiKeyRevoked } from "./store";

/** Revokes a key at once, on every instance (keys are checked against the database on each use). */
export async function revokeApiKey(tenantId: string, keyId: string): Promise<ApiKeyInfo> {
  const revoked = await markApiKeyRevoked(tenantId, keyId);
  if (revoked) return toApiKeyInfo(revoked);
  const existing = await findApiKey(tenantId, keyId);
  if (!existing) throw new AppError("API_KEY_NOT_FOUND", "API key not found");
  return toApiKeyInfo(existing); // already revoked: revoking again changes nothing
}
