import { errors } from "oidc-provider";
import { constantTimeEqual, sha256Hex } from "@/lib/crypto";
import { outboundUrlRefusal } from "@/lib/webhooks";

/** Hosts a plain-http redirect URI may name (RFC 8252 §7.3: loopback only). */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Spaces and control characters: the URL parser drops or trims them, an exact comparison does not. */
const hasSpaceOrControl = (value: string) =>
  /\s/.test(value) || [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** Why a redirect URI is refused, or undefined when it is fine. */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "must be a URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (hasSpaceOrControl(value)) return "must not contain spaces or control characters";
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

/**
 * Why a `backchannel_logout_uri` is refused, or undefined when there is none or it may be called: Sesame
 * POSTs logout tokens to it from the server, so it gets the webhooks' SSRF policy (https; every address
 * the host resolves to public; with `SESAME_WEBHOOKS_ALLOW_PRIVATE=true`, http to localhost and private
 * addresses too; cloud metadata addresses never), checked when a client is registered or the URI
 * changes, and again before every delivery.
 */
export async function logoutUriRefusal(value: unknown): Promise<string | undefined> {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "must be a URL";
  if (hasSpaceOrControl(value)) return "must not contain spaces or control characters";
  return outboundUrlRefusal(value);
}

/** A client secret as stored: its SHA-256 (secrets are 256-bit random, so no slow hash is needed). */
export const hashClientSecret = (secret: string): string => `sha256:${sha256Hex(secret)}`;

/** Compares a presented secret with the stored hash in constant time. */
export function clientSecretMatches(stored: string | undefined, presented: string): boolean {
  if (!stored) return false;
  return constantTimeEqual(stored, hashClientSecret(presented));
}
