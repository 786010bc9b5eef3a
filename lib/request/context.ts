import { randomUUID } from "node:crypto";
import { BlockList, isIP } from "node:net";
import { getConfig, parseCidr } from "@/lib/config";

export interface RequestContext {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request id (a caller's `X-Request-Id` when it is safe to echo, else a new UUID), client IP and
 * user agent, as audit records and logs want them.
 */
export function requestContext(req: { headers: Headers }): RequestContext {
  const incoming = req.headers.get("x-request-id");
  // scripts/server.mjs appends the socket address as the last entry of every request; the entries
  // before it are believed only from trusted proxies (docs/decisions.md, Client IP).
  const forwarded = req.headers.get("x-forwarded-for");
  const ip = clientIp(forwarded?.split(",").map((entry) => entry.trim()) ?? []);
  return {
    requestId: incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID(),
    ip,
    userAgent: req.headers.get("user-agent"),
  };
}

let trusted: { key: string; list: BlockList } | undefined;

function blockList(entries: readonly string[]): BlockList {
  const key = entries.join(",");
  if (trusted?.key !== key) {
    const list = new BlockList();
    for (const entry of entries) {
      const cidr = parseCidr(entry);
      if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
    trusted = { key, list };
  }
  return trusted.list;
}

/**
 * The rightmost `X-Forwarded-For` entry that is not a trusted proxy (`SESAME_TRUSTED_PROXIES`). The
 * last entry is the socket peer Sesame's server (scripts/server.mjs) appended; with no proxies
 * configured that is the answer, whatever the client wrote before it. An entry that is not an IP
 * address is never the answer: met while walking left it ends the walk with null, since a trusted
 * proxy writes its peer's address, so anything garbled left of it came from the client.
 */
export function clientIp(
  chain: string[],
  proxies: readonly string[] = getConfig().trustedProxies,
): string | null {
  const list = blockList(proxies);
  for (let i = chain.length - 1; i >= 0; i--) {
    const entry = withoutPort(chain[i]!);
    const family = isIP(entry);
    if (family === 0) return null;
    // Only proxies: the leftmost entry is the best knowledge there is.
    if (i === 0 || !isTrusted(list, entry, family)) return entry;
  }
  return null;
}

/** Some load balancers write `a.b.c.d:port` or `[v6]:port`: the address without the port. */
function withoutPort(entry: string): string {
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry)?.[1];
  if (v4) return v4;
  return /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? entry;
}

/** IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`, how Node reports IPv4 peers on a dual-stack socket) count as IPv4. */
function isTrusted(list: BlockList, address: string, family: number): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return list.check(mapped, "ipv4");
  return list.check(address, family === 4 ? "ipv4" : "ipv6");
}
