import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getMasterSecret } from "./master-secret";

/**
 * Authenticated encryption at rest (AES-256-GCM) under a key derived from the master secret with HKDF.
 * `context` is bound as additional data, so a sealed value cannot be moved to another row.
 * Format: `v1.<iv>.<ciphertext||tag>`, both base64url.
 */
const VERSION = "v1";

function key(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", getMasterSecret(), "sesame", `sesame/${purpose}/${VERSION}`, 32));
}

/**
 * A 32-byte key for one purpose and context (for example a MAC key per tenant), derived from the master
 * secret with HKDF, so every instance sharing the secret derives the same key and nothing is stored.
 */
export function deriveKey(purpose: string, context: string): Buffer {
  return Buffer.from(
    hkdfSync("sha256", getMasterSecret(), "sesame", `sesame/${purpose}/${VERSION}/${context}`, 32),
  );
}

export function seal(plaintext: string, purpose: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString("base64url")}.${body.toString("base64url")}`;
}

export function unseal(sealed: string, purpose: string, context: string): string {
  const [version, ivText, bodyText] = sealed.split(".");
  if (version !== VERSION || !ivText || !bodyText) throw new Error("Unknown sealed value format");
  const body = Buffer.from(bodyText, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(purpose), Buffer.from(ivText, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
    "utf8",
  );
}
