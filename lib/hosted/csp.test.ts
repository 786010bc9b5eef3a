import { describe, expect, it } from "vitest";
import { hostedCsp, newNonce } from "./csp";

describe("security 13: hosted pages send a nonce-based script CSP", () => {
  const directives = (policy: string) =>
    Object.fromEntries(
      policy.split(";").map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );

  it("allows scripts by nonce and what they load, no objects, no base, no framing", () => {
    const policy = directives(hostedCsp("abc+/="));
    expect(policy).toMatchObject({
      "default-src": "'self'",
      "script-src": "'self' 'nonce-abc+/=' 'strict-dynamic'",
      "connect-src": "'self'",
      "object-src": "'none'",
      "base-uri": "'none'",
      "frame-ancestors": "'none'",
    });
    expect(policy["img-src"]).toContain("https:");
    expect(hostedCsp("n")).not.toContain("unsafe-eval");
  });

  it("allows eval only in development", () => {
    expect(directives(hostedCsp("n", { development: true }))["script-src"]).toBe(
      "'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'",
    );
  });

  it("makes a fresh 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
