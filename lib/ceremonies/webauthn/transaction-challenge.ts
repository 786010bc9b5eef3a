import { createHash, randomBytes } from "node:crypto";

/** What Go's encoding/json escapes in strings besides what JSON.stringify does. */
const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * The canonical JSON of transaction data, byte for byte what Hanko's passkey server hashes (Go's
 * `json.Marshal` of the decoded value): object keys sorted, no whitespace, `<`, `>`, `&`, U+2028 and
 * U+2029 escaped.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
}

/**
 * A transaction challenge: 32 random bytes followed by SHA-256(transaction_id ‖ canonical data), so the
 * authenticator's signature covers the transaction.
 */
export function transactionChallenge(
  transactionId: string,
  data: string,
  random = randomBytes(32),
): Uint8Array<ArrayBuffer> {
  const digest = createHash("sha256").update(transactionId, "utf8").update(data, "utf8").digest();
  return new Uint8Array(Buffer.concat([random, digest]));
}
