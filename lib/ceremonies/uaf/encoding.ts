import { createHash, timingSafeEqual } from "node:crypto";

/** base64url without padding (RFC 4648 §5), as UAF writes every binary field. */
export const toBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");

const WHITESPACE = /[\r\n\t ]/g;
const BASE64_ANY_ALPHABET = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes base64url leniently, as real UAF clients need (fido-uaf.md §2.1): the standard alphabet,
 * `=` padding and embedded line breaks or spaces are accepted. Anything else (other characters,
 * padding in the middle, an impossible length) is refused with undefined: Node's own decoder would
 * silently skip such characters.
 */
export function decodeBase64Lenient(text: string): Buffer | undefined {
  const compact = text.replace(WHITESPACE, "");
  if (!BASE64_ANY_ALPHABET.test(compact)) return undefined;
  const unpadded = compact.replace(/=+$/, "");
  if (compact.length !== unpadded.length && compact.length % 4 !== 0) return undefined;
  if (unpadded.length % 4 === 1) return undefined;
  return Buffer.from(unpadded.replace(/\+/g, "-").replace(/\//g, "_"), "base64url");
}

export const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

/** Constant-time equality that is false (not an exception) for different lengths. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
