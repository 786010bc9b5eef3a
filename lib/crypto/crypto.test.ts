import { describe, expect, it } from "vitest";
import { seal, unseal } from "./secret-box";
import { constantTimeEqual, randomToken, sha256Hex } from "./tokens";

describe("seal and unseal", () => {
  it("round-trips a value bound to its context", () => {
    const sealed = seal('{"d":"private"}', "signing-key", "tenant/kid");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("private");
    expect(unseal(sealed, "signing-key", "tenant/kid")).toBe('{"d":"private"}');
  });

  it("refuses a value moved to another context or purpose", () => {
    const sealed = seal("secret", "signing-key", "tenant-a/kid");
    expect(() => unseal(sealed, "signing-key", "tenant-b/kid")).toThrow();
    expect(() => unseal(sealed, "other-purpose", "tenant-a/kid")).toThrow();
  });

  it("refuses a tampered ciphertext", () => {
    const sealed = seal("secret", "p", "c");
    const [version, iv, body] = sealed.split(".") as [string, string, string];
    const bytes = Buffer.from(body, "base64url");
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    expect(() => unseal(`${version}.${iv}.${bytes.toString("base64url")}`, "p", "c")).toThrow();
  });

  it("uses a fresh IV every time", () => {
    expect(seal("same", "p", "c")).not.toBe(seal("same", "p", "c"));
  });
});

describe("tokens", () => {
  it("makes 256-bit base64url tokens", () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
  });

  it("hashes with SHA-256", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("compares in constant time without throwing on different lengths", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "x")).toBe(false);
  });
});
