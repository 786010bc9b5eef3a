import type { SigningAlgorithm } from "@/lib/db/schema";
import { getTenant } from "../get-tenant";
import { selectSigningKeys } from "./store";

/** A signing key as listed: public data only, never the (sealed) private key. */
export interface SigningKeyInfo {
  /** Also the JWK `kid`. */
  kid: string;
  algorithm: SigningAlgorithm;
  active: boolean;
  createdAt: Date;
  retiredAt: Date | null;
}

/** The tenant's signing keys, newest first: the active one and the retired ones still in the JWKS. */
export async function listSigningKeys(tenantId: string): Promise<SigningKeyInfo[]> {
  const tenant = await getTenant(tenantId);
  const rows = await selectSigningKeys(tenant.id);
  return rows.reverse().map((row) => ({
    kid: row.id,
    algorithm: row.algorithm,
    active: row.active,
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
  }));
}
