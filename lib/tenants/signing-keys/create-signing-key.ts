import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { seal } from "@/lib/crypto";
import type { SigningAlgorithm, SigningKeyRow } from "@/lib/db/schema";
import { insertSigningKey } from "./store";

export const SIGNING_KEY_PURPOSE = "signing-key";

/** Binds a sealed private key to its row, so it cannot be copied to another tenant or kid. */
export function signingKeyContext(tenantId: string, kid: string): string {
  return `${tenantId}/${kid}`;
}

async function generate(algorithm: SigningAlgorithm): Promise<{ publicJwk: JWK; privateJwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair(algorithm, {
    extractable: true,
    ...(algorithm === "RS256" ? { modulusLength: 2048 } : {}),
    ...(algorithm === "EdDSA" ? { crv: "Ed25519" } : {}),
  });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

/** Generates a key pair for the tenant and stores it, the private half encrypted. */
export async function createSigningKey(
  tenantId: string,
  algorithm: SigningAlgorithm,
  options: { active: boolean },
): Promise<SigningKeyRow> {
  const kid = randomUUID();
  const { publicJwk, privateJwk } = await generate(algorithm);
  return insertSigningKey({
    id: kid,
    tenantId,
    algorithm,
    active: options.active,
    publicJwk: { ...publicJwk, kid, alg: algorithm, use: "sig" },
    privateKeyEncrypted: seal(
      JSON.stringify({ ...privateJwk, kid, alg: algorithm }),
      SIGNING_KEY_PURPOSE,
      signingKeyContext(tenantId, kid),
    ),
  });
}
