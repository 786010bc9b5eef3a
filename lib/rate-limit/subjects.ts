import { isIPv4, isIPv6 } from "node:net";
import { sha256Hex } from "@/lib/crypto";

/**
 * The per-IP subject: an IPv4 address as it is (also when IPv4-mapped), an IPv6 address by its /64
 * network, since one host usually holds a whole /64. No address (unknown, see clientIp): `unknown`.
 */
export function ipSubject(ip: string | null): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return `other:${sha256Hex(ip).slice(0, 32)}`;
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.replace(/%.*$/, "");
  const [head = "", tail] = address.split("::");
  const part = (text: string) => (text ? text.split(":") : []);
  let groups = part(head);
  if (tail !== undefined) {
    const rest = part(tail);
    groups = [...groups, ...Array<string>(8 - groups.length - rest.length).fill("0"), ...rest];
  }
  return groups.map((group) => (/^[0-9a-f]+$/i.test(group) ? parseInt(group, 16).toString(16) : group));
}

/** Body fields that name the account a request is about, in order of preference. */
export const BODY_IDENTIFIERS = ["user_id", "email", "username"] as const;

/**
 * The per-user subject: the session's user when the route is session-authenticated, else the first
 * identifier the validated body carries (`user_id`, `email`, `username`; compared case-insensitively),
 * else none (then only the IP is limited). Stored as a SHA-256, so counters hold no addresses.
 */
export function userSubject(sessionUserId: string | undefined, body: unknown): string | undefined {
  if (sessionUserId) return hashed("user_id", sessionUserId);
  if (typeof body !== "object" || body === null) return undefined;
  for (const field of BODY_IDENTIFIERS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string" && value.trim() !== "") return hashed(field, value);
  }
  return undefined;
}

const hashed = (field: string, value: string) => sha256Hex(`${field}:${value.trim().toLowerCase()}`);
