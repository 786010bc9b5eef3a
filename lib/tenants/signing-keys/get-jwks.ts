import { importJWK, type CryptoKey, type JSONWebKeySet } from "jose";
import { UUID_PATTERN } from "../tenant";
import { findSigningKey, selectSigningKeys } from "./store";

/** The tenant's public keys: the active one and every earlier one, newest first. */
export async function getJwks(tenantId: string): Promise<JSONWebKeySet> {
  const rows = await selectSigningKeys(tenantId);
  return { keys: rows.reverse().map((row) => row.publicJwk) };
}

// Imported public keys by tenant and kid. A key row never changes once written and is never deleted
// while its tenant exists (retiring it leaves it in the JWKS), so this is a pure cache, as the private
// keys' is: a key made on another instance has a new kid, which is read on first sight.
const verifying = new Map<string, Promise<CryptoKey | Uint8Array | undefined>>();

/**
 * The public key that verifies a token with this `kid` (one of the tenant's JWKS keys), or undefined
 * when the tenant has no such key. A kid seen before costs no statement; an unknown one is looked up
 * each time (not remembered, so a key made later is found).
 */
export async function verificationKey(
  tenantId: string,
  kid: string | undefined,
): Promise<CryptoKey | Uint8Array | undefined> {
  if (!kid || !UUID_PATTERN.test(kid)) return undefined;
  const key = `${tenantId}:${kid}`;
  const known = verifying.get(key);
  if (known) return known;
  const row = await findSigningKey(tenantId, kid);
  if (!row) return undefined;
  const imported = importJWK(row.publicJwk, row.algorithm);
  verifying.set(key, imported);
  imported.catch(() => verifying.delete(key));
  return imported;
}
