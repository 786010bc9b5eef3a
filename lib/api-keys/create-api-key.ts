import { z } from "zod";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { API_KEY_SCOPES } from "@/lib/db/enums";
import { ValidationFailed, formatZodIssues } from "@/lib/errors";
import { getTenant } from "@/lib/tenants/get-tenant";
import { toApiKeyInfo, type ApiKeyInfo } from "./api-key";
import { insertApiKey } from "./store";

export const CreateApiKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** Characters of the key kept in clear for display (`sesame_admin_Ab12…`). */
const DISPLAY_SUFFIX = 6;

/**
 * A new key: a readable prefix naming its scope, then 32 random bytes (256 bits, 43 base64url
 * characters). Only its SHA-256 is stored; the caller gets the key once.
 */
export async function createApiKey(
  tenantId: string,
  input: CreateApiKeyInput,
): Promise<{ key: ApiKeyInfo; secret: string }> {
  const parsed = CreateApiKeyInput.safeParse(input);
  if (!parsed.success)
    throw new ValidationFailed(formatZodIssues(parsed.error, "key"), "Invalid API key settings");
  const { name, scopes } = parsed.data;
  const tenant = await getTenant(tenantId);

  const unique = [...new Set(scopes)].sort();
  const label = unique.length === 1 ? unique[0] : "key";
  const secret = `sesame_${label}_${randomToken(32)}`;
  const row = await insertApiKey({
    tenantId: tenant.id,
    name,
    scopes: unique,
    prefix: secret.slice(0, `sesame_${label}_`.length + DISPLAY_SUFFIX),
    secretHash: sha256Hex(secret),
  });
  return { key: toApiKeyInfo(row), secret };
}
