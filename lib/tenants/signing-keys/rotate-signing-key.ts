import { transaction } from "@/lib/db";
import type { SigningAlgorithm, SigningKeyRow } from "@/lib/db/schema";
import { getTenant } from "../get-tenant";
import { createSigningKey } from "./create-signing-key";
import { retireActiveSigningKey } from "./store";

/**
 * Makes a new key the tenant's signing key. The previous keys stay in the JWKS, so tokens they signed
 * keep verifying until they expire.
 */
export async function rotateSigningKey(
  tenantId: string,
  algorithm?: SigningAlgorithm,
): Promise<SigningKeyRow> {
  return transaction(async () => {
    const tenant = await getTenant(tenantId);
    await retireActiveSigningKey(tenant.id);
    return createSigningKey(tenant.id, algorithm ?? tenant.signingAlgorithm, { active: true });
  });
}
