import { constantTimeEqual, sha256Hex } from "@/lib/crypto";
import type { ApiKeyScope } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { findApiKeyByHash, touchApiKey } from "./store";

export interface AuthenticatedKey {
  keyId: string;
  tenantId: string;
  scopes: ApiKeyScope[];
}

/** Keys are at least 32 characters (spec); longer than this is not one of ours. */
const MIN_LENGTH = 32;
const MAX_LENGTH = 128;
/** `last_used_at` is written at most this often per key, to keep writes off the hot path. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Checks a presented API key: it must exist, be unrevoked, carry `scope`, and (when given) belong to
 * `tenantId`. Every failure is the same API_KEY_INVALID, so callers learn nothing about other tenants.
 */
export async function authenticateApiKey(
  secret: string | null | undefined,
  expected: { scope: ApiKeyScope; tenantId?: string },
): Promise<AuthenticatedKey> {
  if (!secret || secret.length < MIN_LENGTH || secret.length > MAX_LENGTH)
    throw new AppError("API_KEY_INVALID");
  const digest = sha256Hex(secret);
  const row = await findApiKeyByHash(digest);
  if (
    !row ||
    !constantTimeEqual(row.secretHash, digest) ||
    row.revokedAt !== null ||
    !row.scopes.includes(expected.scope) ||
    (expected.tenantId !== undefined && row.tenantId !== expected.tenantId.toLowerCase())
  ) {
    throw new AppError("API_KEY_INVALID");
  }
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await touchApiKey(row.tenantId, row.id, now);
  }
  return { keyId: row.id, tenantId: row.tenantId, scopes: row.scopes };
}
