import { createHmac, randomInt } from "node:crypto";
import { constantTimeEqual, deriveKey } from "@/lib/crypto";

/** Wrong codes allowed per address before it is locked until its latest code expires. */
export const MAX_FAILED_ATTEMPTS = 3;

/** A uniformly random 6-digit code. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * HMAC-SHA256 of the code under a per-tenant key derived from the master secret, bound to the
 * passcode id. A plain SHA-256 of 6 digits is reversed by trying all 10^6; this digest is not,
 * without the master secret, and a digest copied to another row does not match there.
 */
export function digestCode(tenantId: string, passcodeId: string, code: string): string {
  return createHmac("sha256", deriveKey("passcode", tenantId)).update(`${passcodeId}:${code}`).digest("hex");
}

export function codeMatches(tenantId: string, passcodeId: string, code: string, digest: string): boolean {
  return constantTimeEqual(digestCode(tenantId, passcodeId, code), digest);
}
