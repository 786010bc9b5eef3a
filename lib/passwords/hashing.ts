import { hash, verify } from "@node-rs/argon2";
import { randomToken } from "@/lib/crypto";

/**
 * argon2id with the package defaults, which are OWASP's recommendation: 19 MiB memory, 2 passes, 1 lane,
 * 16-byte random salt, 32-byte output; stored as the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`),
 * so a later change of parameters still verifies old hashes.
 */
export function hashPassword(normalized: string): Promise<string> {
  return hash(normalized);
}

export async function verifyPassword(stored: string, normalized: string): Promise<boolean> {
  try {
    return await verify(stored, normalized);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a hash nobody knows the password of, so an unknown user
 * or a user without a password answers as slowly as a wrong password.
 */
export async function verifyDummy(normalized: string): Promise<false> {
  dummy ??= hashPassword(randomToken(32));
  await verifyPassword(await dummy, normalized);
  return false;
}
