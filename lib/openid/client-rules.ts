import { errors } from "oidc-provider";
import { constantTimeEqual, sha256Hex } from "@/lib/crypto";

/** Hosts a plain-http redirect URI may name (RFC 8252 §7.3: loopback only). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why a redirect URI is refused, or undefined when it is fine. */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "must be a URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash) return "must not have a fragment";
  if (url.username || url.password) return "must not carry user info";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") return LOOPBACK.has(url.hostname) ? undefined : "http only on loopback hosts";
  // Private-use schemes of native apps (`com.example.app:/callback`, RFC 8252 §7.1).
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return undefined;
  return "must be https (http only on loopback hosts)";
}

/**
 * Sesame's rule on top of oidc-provider's: `redirect_uris` and `post_logout_redirect_uris` are https, a
 * native app's private-use scheme, or http on a loopback host. Throws oidc-provider's
 * `invalid_client_metadata`, which both dynamic registration and Sesame's own client operations answer.
 */
export function checkRedirectUris(metadata: Record<string, unknown>): void {
  for (const field of ["redirect_uris", "post_logout_redirect_uris"] as const) {
    const list = metadata[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new errors.InvalidClientMetadata(`${field} must be an array`);
    for (const uri of list) {
      const problem = redirectUriProblem(uri);
      if (problem)
        throw new errors.InvalidClientMetadata(`${field}: ${String(uri).slice(0, 100)} ${problem}`);
    }
  }
}

/** A client secret as stored: its SHA-256 (secrets are 256-bit random, so no slow hash is needed). */
export const hashClientSecret = (secret: string): string => `sha256:${sha256Hex(secret)}`;

/** Compares a presented secret with the stored hash in constant time. */
export function clientSecretMatches(stored: string | undefined, presented: string): boolean {
  if (!stored) return false;
  return constantTimeEqual(stored, hashClientSecret(presented));
}
