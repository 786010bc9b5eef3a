import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** `bytes` of CSPRNG output, base64url without padding (32 bytes → 43 characters, 256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * Constant-time comparison of two strings. Unequal lengths return false without throwing
 * (Node's timingSafeEqual throws a RangeError on them).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
