import { Resolver } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { webhookSettings } from "./settings";

/**
 * The SSRF guard of webhook callbacks. A callback is `https:` (or `http:` to this machine when
 * `SESAME_WEBHOOKS_ALLOW_PRIVATE=true`), and every address its host resolves to must be a public unicast
 * address: loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, reserved and cloud
 * metadata addresses are refused (with ALLOW_PRIVATE, loopback, private and unique-local ones pass;
 * metadata never does). Checked when an endpoint is saved and again before every attempt, and the
 * request then connects to the address that was checked (no second DNS answer: no rebinding).
 */
export class CallbackRefused extends Error {
  override name = "CallbackRefused";
  constructor(
    /** What is wrong with the URL (`must be an https URL`); the message names the field `callback`. */
    readonly problem: string,
    /**
     * `address_refused` (the host resolves to a refused address), `dns_failed` (no address),
     * `dns_timeout` (DNS did not answer in time) or `invalid_url`.
     */
    readonly reason: "address_refused" | "dns_failed" | "dns_timeout" | "invalid_url",
  ) {
    super(`callback: ${problem}`);
  }
}

const METADATA = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "fd00:ec2:0:0:0:0:0:254"]);
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal"]);

/** IPv4-compatible IPv6 (`::/96`, deprecated): `::7f00:1` is 127.0.0.1 to some stacks; never called. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** Whether a resolved address may be called. */
export function isAllowedAddress(address: string, allowPrivate = webhookSettings().allowPrivate): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv6" && parsed.match(IPV4_COMPATIBLE)) {
    // `::1` is loopback (allowed with allowPrivate like 127.0.0.1); the rest of ::/96 never is.
    return allowPrivate && parsed.range() === "loopback";
  }
  const normalized = parsed.toNormalizedString();
  if (METADATA.has(normalized) || METADATA.has(parsed.toString())) return false;
  const range = parsed.range();
  if (range === "unicast") return true;
  return allowPrivate && PRIVATE_RANGES.has(range);
}

const LOCAL_HOSTS = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/** Checks the URL's form (scheme, no fragment); throws CallbackRefused. */
export function checkCallbackUrl(callback: string, allowPrivate = webhookSettings().allowPrivate): URL {
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    throw new CallbackRefused("must be an absolute URL", "invalid_url");
  }
  if (url.protocol === "http:") {
    if (!allowPrivate || !LOCAL_HOSTS.test(url.hostname))
      throw new CallbackRefused(
        "must be an https URL (http only to localhost with SESAME_WEBHOOKS_ALLOW_PRIVATE=true)",
        "invalid_url",
      );
  } else if (url.protocol !== "https:") {
    throw new CallbackRefused("must be an https URL", "invalid_url");
  }
  if (url.hash) throw new CallbackRefused("must not have a fragment", "invalid_url");
  return url;
}

export interface ResolvedCallback {
  url: URL;
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
}

const LOCALHOST = /^(localhost|.*\.localhost)$/i;

/** Runs `fn` with a fresh resolver (timeout and tries per query; servers from settings, else the system's). */
async function withResolver<T>(fn: (resolver: Resolver) => Promise<T>): Promise<T> {
  const { dnsTimeoutMs, dnsServers } = webhookSettings();
  const resolver = new Resolver({ timeout: dnsTimeoutMs, tries: 1 });
  if (dnsServers) resolver.setServers(dnsServers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(Object.assign(new Error("DNS timeout"), { code: "ETIMEOUT" }));
    }, dnsTimeoutMs + 250);
  });
  try {
    return await Promise.race([fn(resolver), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const isTimeout = (error: unknown) =>
  ["ETIMEOUT", "ECANCELLED"].includes((error as NodeJS.ErrnoException | undefined)?.code ?? "");

const dnsRefusal = (host: string, timedOut: boolean) =>
  timedOut
    ? new CallbackRefused(`DNS did not answer for ${host} in time`, "dns_timeout")
    : new CallbackRefused(`the host ${host} does not resolve`, "dns_failed");

/**
 * The host's A and AAAA addresses, asked of DNS directly (c-ares: no libuv thread-pool slot, bounded by
 * `dnsTimeoutMs`). `localhost` and `*.localhost` are loopback without asking (RFC 6761).
 */
async function resolveHost(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  if (LOCALHOST.test(host))
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  const [v4, v6] = await withResolver((resolver) =>
    Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]),
  );
  const addresses = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  if (addresses.length === 0) {
    const timedOut = [v4, v6].some((result) => result.status === "rejected" && isTimeout(result.reason));
    throw dnsRefusal(host, timedOut);
  }
  return addresses;
}

/** Resolves the callback's host (all addresses) and checks each; throws CallbackRefused. */
export async function resolveCallback(
  callback: string,
  allowPrivate = webhookSettings().allowPrivate,
): Promise<ResolvedCallback> {
  const url = checkCallbackUrl(callback, allowPrivate);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolveHost(host);
    } catch (error) {
      if (error instanceof CallbackRefused) throw error;
      throw dnsRefusal(host, isTimeout(error));
    }
  }
  const refused = addresses.find((entry) => !isAllowedAddress(entry.address, allowPrivate));
  if (refused)
    throw new CallbackRefused(
      `${host} resolves to ${refused.address}, a private, loopback, link-local or reserved address`,
      "address_refused",
    );
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * Why the server may not call `url` now, by the webhooks' policy (the same scheme rule, resolution and
 * address ranges as a callback, `SESAME_WEBHOOKS_ALLOW_PRIVATE` included), or undefined when it may: for
 * other URLs Sesame calls, a client's `backchannel_logout_uri` (lib/openid). Deliveries check again.
 */
export async function outboundUrlRefusal(url: string): Promise<string | undefined> {
  try {
    await resolveCallback(url);
    return undefined;
  } catch (error) {
    if (error instanceof CallbackRefused) return error.problem;
    throw error;
  }
}
