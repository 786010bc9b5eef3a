import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientIp } from "./request-context";

describe("client IP from X-Forwarded-For", () => {
  it("is the socket peer (the last entry) without trusted proxies; earlier entries are the client's claims", () => {
    expect(clientIp(["6.6.6.6", "203.0.113.9"], [])).toBe("203.0.113.9");
    expect(clientIp([], [])).toBeNull();
  });

  it("skips trusted proxies from the right and takes the first address that is not one", () => {
    const proxies = ["10.0.0.0/8", "::1"];
    expect(clientIp(["6.6.6.6", "198.51.100.7", "10.1.2.3", "::1"], proxies)).toBe("198.51.100.7");
    expect(clientIp(["198.51.100.7", "::ffff:10.0.0.5"], proxies)).toBe("198.51.100.7");
    expect(clientIp(["2001:db8::1", "10.0.0.1"], proxies)).toBe("2001:db8::1");
    // Only proxies: the leftmost entry is the best knowledge there is.
    expect(clientIp(["10.0.0.2", "10.0.0.1"], proxies)).toBe("10.0.0.2");
    // A garbled entry left of a trusted proxy: unknown, not a spoofable value.
    expect(clientIp(["garbage", "10.0.0.1"], proxies)).toBeNull();
  });

  it("validates SESAME_TRUSTED_PROXIES", () => {
    expect(
      parseConfig({ SESAME_TRUSTED_PROXIES: "10.0.0.0/8, 192.168.1.1,fd00::/8" }).trustedProxies,
    ).toEqual(["10.0.0.0/8", "192.168.1.1", "fd00::/8"]);
    expect(parseConfig({}).trustedProxies).toEqual([]);
    expect(() => parseConfig({ SESAME_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/SESAME_TRUSTED_PROXIES/);
    expect(() => parseConfig({ SESAME_TRUSTED_PROXIES: "proxy.local" })).toThrow(/not an IP address or CIDR/);
  });
});
