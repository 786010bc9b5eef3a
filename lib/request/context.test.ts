import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientIp, requestContext } from "@/lib/request/context";

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

  it("security 6: a non-IP entry is never returned, wherever it stands", () => {
    for (const proxies of [[], ["10.0.0.0/8"]]) {
      expect(clientIp(["<script>"], proxies)).toBeNull();
      expect(clientIp(["unknown"], proxies)).toBeNull();
      expect(clientIp([""], proxies)).toBeNull();
      // Not the client's earlier claim either: a garbled last entry means no client IP.
      expect(clientIp(["203.0.113.7", "<script>"], proxies)).toBeNull();
    }
    expect(clientIp(["203.0.113.7", "not-an-ip", "10.0.0.1"], ["10.0.0.0/8"])).toBeNull();
  });

  it("reads addresses that proxies wrote with a port (a.b.c.d:port, [v6]:port)", () => {
    expect(clientIp(["203.0.113.7:51234", "10.0.0.1"], ["10.0.0.0/8"])).toBe("203.0.113.7");
    expect(clientIp(["[2001:db8::7]:443", "10.0.0.1"], ["10.0.0.0/8"])).toBe("2001:db8::7");
    expect(clientIp(["203.0.113.7:x", "10.0.0.1"], ["10.0.0.0/8"])).toBeNull();
  });

  it("security 6: without trusted proxies the answer is the last entry (the socket address), whatever the client sent", () => {
    const socket = "127.0.0.1";
    for (const sent of [[], ["203.0.113.7"], ["<script>"], ["203.0.113.7", "garbage", "::1"], [""]]) {
      expect(clientIp([...sent, socket], [])).toBe(socket);
      expect(clientIp([...sent, "2001:db8::5"], [])).toBe("2001:db8::5");
    }
    // The request context reads the same header (the app sees it after scripts/server.mjs appended).
    const req = new Request("http://localhost/", {
      headers: { "x-forwarded-for": "<script>, 203.0.113.7, 127.0.0.1" },
    });
    expect(requestContext(req).ip).toBe("127.0.0.1");
    const garbled = new Request("http://localhost/", {
      headers: { "x-forwarded-for": "203.0.113.7, <script>" },
    });
    expect(requestContext(garbled).ip).toBeNull();
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
