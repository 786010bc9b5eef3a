import { importJWK, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { unseal } from "@/lib/crypto";
import type { SigningKeyRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { SIGNING_KEY_PURPOSE, signingKeyContext } from "./create-signing-key";
import { findActiveSigningKey } from "./store";

// Imported private keys by kid. A kid's key never changes, so this is a pure cache, not shared state.
const imported = new Map<string, Promise<CryptoKey | Uint8Array>>();

function privateKeyOf(row: SigningKeyRow): Promise<CryptoKey | Uint8Array> {
  let key = imported.get(row.id);
  if (!key) {
    const jwk = JSON.parse(
      unseal(row.privateKeyEncrypted, SIGNING_KEY_PURPOSE, signingKeyContext(row.tenantId, row.id)),
    );
    key = importJWK(jwk, row.algorithm);
    imported.set(row.id, key);
  }
  return key;
}

export interface SignTokenOptions {
  /** Lifetime in seconds from now. */
  expiresIn: number;
  audience?: string | string[];
  issuer?: string;
  subject?: string;
  /** Issue time (Unix seconds); default now. `exp` is this plus `expiresIn`. */
  issuedAt?: number;
}

/** Signs `claims` as a JWT with the tenant's active key (`kid` in the header). */
export async function signToken(
  tenantId: string,
  claims: JWTPayload,
  options: SignTokenOptions,
): Promise<string> {
  const row = await findActiveSigningKey(tenantId);
  if (!row)
    throw new AppError("INTERNAL", undefined, { cause: new Error(`tenant ${tenantId} has no signing key`) });
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: row.algorithm, kid: row.id, typ: "JWT" })
    .setIssuedAt(options.issuedAt)
    .setExpirationTime(
      options.issuedAt === undefined ? `${options.expiresIn}s` : options.issuedAt + options.expiresIn,
    );
  if (options.audience) jwt = jwt.setAudience(options.audience);
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.subject) jwt = jwt.setSubject(options.subject);
  return jwt.sign(await privateKeyOf(row));
}
