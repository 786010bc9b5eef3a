import { constantTimeEqual, randomToken, sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import type { RequestRecord } from "./store";

/**
 * The out-of-band token lets the authenticator app (which never holds the API key) fetch one request
 * and answer it once. 128 random bits, stored as SHA-256, bound to the request, dead when the request
 * leaves PENDING or passes `validUntil`. Each QR code mints a new token, replacing the previous one.
 */
export function newOobToken(): { token: string; hash: string } {
  const token = randomToken(16);
  return { token, hash: sha256Hex(token) };
}

/** The token may still be used: it matches, and the request can still be answered (or, DEREG, read). */
export function checkOobToken(record: RequestRecord, token: string): void {
  const matches = record.oobTokenHash !== null && constantTimeEqual(sha256Hex(token), record.oobTokenHash);
  if (!matches || !tokenUsable(record))
    throw new AppError("OOB_TOKEN_INVALID", undefined, { details: ["invalid or expired out-of-band token"] });
}

/** While PENDING and fresh; a DEREG (already OK) stays readable until `validUntil` so the app can forget its keys. */
export function tokenUsable(record: RequestRecord): boolean {
  if (record.expired) return false;
  return record.status === "PENDING" || (record.operation === "DEREG" && record.status === "OK");
}
