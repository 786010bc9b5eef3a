import type { AuditContext } from "@/lib/audit";
import { sha256Hex } from "@/lib/crypto";
import { ipSubject } from "@/lib/rate-limit";

/**
 * Who asks for a code, as stored on it: a digest of the client's IP subject (an IPv6 /64 counts as one
 * client, as for rate limits). A code's failed attempts carry over, and a new code replaces the live ones,
 * only within one requester: a stranger's wrong guesses and new codes from elsewhere never lock or replace
 * the code the address's owner asked for, while one client still gets 3 wrong codes per code lifetime
 * however many codes it asks for.
 */
export function requesterOf(context: Pick<AuditContext, "ip">): string {
  return sha256Hex(`passcode-requester:${ipSubject(context.ip ?? null)}`);
}
