import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeDns, type FakeDns } from "@/tests/admin-api/webhooks-dns";
import { configureWebhooks } from "./settings";
import { CallbackRefused, isAllowedAddress, resolveCallback } from "./ssrf";

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
});
afterAll(() => dns.close());
afterEach(() => configureWebhooks(undefined));

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof CallbackRefused ? error.reason : error),
  );

describe("isAllowedAddress", () => {
  it("refuses IPv4-compatible IPv6 (::/96) explicitly, also with allowPrivate (but ::1 is loopback)", () => {
    for (const address of ["::7f00:1", "::a9fe:a9fe", "::a00:1", "::5db8:d70e", "::"]) {
      expect(isAllowedAddress(address, false)).toBe(false);
      expect(isAllowedAddress(address, true)).toBe(false);
    }
    expect(isAllowedAddress("::1", false)).toBe(false);
    expect(isAllowedAddress("::1", true)).toBe(true);
  });

  it("still allows public unicast and refuses the other ranges", () => {
    expect(isAllowedAddress("93.184.215.14", false)).toBe(true);
    expect(isAllowedAddress("2606:2800:21f:cb07:6820:80da:af6b:8b2c", false)).toBe(true);
    for (const address of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "::ffff:127.0.0.1", "fd00:ec2::254"])
      expect(isAllowedAddress(address, false)).toBe(false);
  });
});

describe("resolveCallback (DNS with a timeout)", () => {
  const use = (overrides: Parameters<typeof configureWebhooks>[0] = {}) =>
    configureWebhooks({ dnsServers: [dns.server], dnsTimeoutMs: 400, allowPrivate: false, ...overrides });

  it("connects to a checked address of the A/AAAA answers", async () => {
    use();
    dns.answer("hooks.example.test", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]);
    const resolved = await resolveCallback("https://hooks.example.test/x");
    expect(resolved.address).toBe("93.184.215.14");
    expect(resolved.family).toBe(4);
    dns.answer("v6.example.test", ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"]);
    expect((await resolveCallback("https://v6.example.test/x")).family).toBe(6);
  });

  it("an unknown name is dns_failed; a server that does not answer is dns_timeout, within the timeout", async () => {
    use();
    expect(await refusal(resolveCallback("https://nowhere.example.test/x"))).toBe("dns_failed");
    dns.answer("slow.example.test", "silent");
    const started = Date.now();
    expect(await refusal(resolveCallback("https://slow.example.test/x"))).toBe("dns_timeout");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("refuses a name with any private, metadata or ::/96 address among its answers", async () => {
    use();
    dns.answer("mixed.example.test", ["93.184.215.14", "10.0.0.5"]);
    expect(await refusal(resolveCallback("https://mixed.example.test/x"))).toBe("address_refused");
    dns.answer("compat.example.test", ["::a9fe:a9fe"]);
    expect(await refusal(resolveCallback("https://compat.example.test/x"))).toBe("address_refused");
    expect(await refusal(resolveCallback("https://[::7f00:1]/x"))).toBe("address_refused");
  });

  it("localhost is loopback without asking DNS (allowed only with allowPrivate)", async () => {
    use({ allowPrivate: true });
    expect((await resolveCallback("http://localhost:8080/x")).address).toBe("127.0.0.1");
    use({ allowPrivate: false });
    expect(await refusal(resolveCallback("https://localhost/x"))).toBe("address_refused");
  });
});
