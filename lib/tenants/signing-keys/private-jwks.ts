import type { JWK } from "jose";
import { unseal } from "@/lib/crypto";
import { SIGNING_KEY_PURPOSE, signingKeyContext } from "./create-signing-key";
import { selectSigningKeys } from "./store";

/**
 * The tenant's signing keys as private JWKs, the active key first and then the retired ones newest first:
 * exactly the keys of its JWKS. For a signer that needs the keys themselves (the OpenID Provider,
 * lib/openid), which signs with the first key of an algorithm and publishes all of them.
 */
export async function privateSigningJwks(tenantId: string): Promise<JWK[]> {
  const rows = (await selectSigningKeys(tenantId)).reverse();
  rows.sort((a, b) => Number(b.active) - Number(a.active));
  return rows.map(
    (row) =>
      ({
        ...JSON.parse(
          unseal(row.privateKeyEncrypted, SIGNING_KEY_PURPOSE, signingKeyContext(row.tenantId, row.id)),
        ),
        kid: row.id,
        alg: row.algorithm,
        use: "sig",
      }) as JWK,
  );
}
