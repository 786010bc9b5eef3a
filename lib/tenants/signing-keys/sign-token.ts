import { importJWK, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { unseal } from "@/lib/crypto";
import type { SigningKeyRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { SIGNING_KEY_PURPOSE, signingKeyContext } from "./create-signing-key";
import type { Tenant } from "../tenant";
import { findActiveSigningKey, findSigningKey } from "./store";

interface ImportedKey {
  id: string;
  algorithm: SigningKeyRow["algorithm"];
  privateKey: CryptoKey | Uint8Array;
}

// Imported private keys by tenant and kid. A kid's key never changes, so this is a pure cache, not shared
// state: a key rotated on another instance has a new kid, which the next tenant read names.
const imported = new Map<string, Promise<ImportedKey>>();
const cacheKey = (tenantId: string, keyId: string) => `${tenantId}:${keyId}`;

function importKey(row: SigningKeyRow): Promise<ImportedKey> {
  let key = imported.get(cacheKey(row.tenantId, row.id));
  if (!key) {
    const jwk = JSON.parse(
      unseal(row.privateKeyEncrypted, SIGNING_KEY_PURPOSE, signingKeyContext(row.tenantId, row.id)),
    );
    key = importJWK(jwk, row.algorithm).then((privateKey) => ({
      id: row.id,
      algorithm: row.algorithm,
      privateKey,
    }));
    imported.set(cacheKey(row.tenantId, row.id), key);
  }
  return key;
}

const noSigningKey = (tenantId: string) =>
  new AppError("INTERNAL", undefined, { cause: new Error(`tenant ${tenantId} has no signing key`) });

async function activeKey(tenantId: string): Promise<ImportedKey> {
  const row = await findActiveSigningKey(tenantId);
  if (!row) throw noSigningKey(tenantId);
  return importKey(row);
}

async function keyById(tenantId: string, keyId: string): Promise<ImportedKey> {
  const cached = imported.get(cacheKey(tenantId, keyId));
  if (cached) return cached;
  const row = await findSigningKey(tenantId, keyId);
  if (!row) throw noSigningKey(tenantId);
  return importKey(row);
}

export interface SignTokenOptions {
  /** Lifetime in seconds from now. */
  expiresIn: number;
  audience?: string | string[];
  issuer?: string;
  subject?: string;
  /** Issue time (Unix seconds); default now. `exp` is this plus `expiresIn`. */
  issuedAt?: number;
  /** The header's `typ` (default `JWT`; a back-channel logout token is `logout+jwt`). */
  type?: string;
}

/**
 * Signs `claims` as a JWT with the tenant's active key (`kid` in the header). Given a tenant read with
 * its active key's id (selectTenant), no statement runs once the key is imported; given only the tenant's
 * id, the active key is read first.
 */
export async function signToken(
  tenant: string | Pick<Tenant, "id" | "activeSigningKeyId">,
  claims: JWTPayload,
  options: SignTokenOptions,
): Promise<string> {
  const tenantId = typeof tenant === "string" ? tenant : tenant.id;
  const keyId = typeof tenant === "string" ? undefined : tenant.activeSigningKeyId;
  const key = await (keyId ? keyById(tenantId, keyId) : activeKey(tenantId));
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: key.algorithm, kid: key.id, typ: options.type ?? "JWT" })
    .setIssuedAt(options.issuedAt)
    .setExpirationTime(
      options.issuedAt === undefined ? `${options.expiresIn}s` : options.issuedAt + options.expiresIn,
    );
  if (options.audience) jwt = jwt.setAudience(options.audience);
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.subject) jwt = jwt.setSubject(options.subject);
  return jwt.sign(key.privateKey);
}
