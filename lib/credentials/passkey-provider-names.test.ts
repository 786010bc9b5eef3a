import { describe, expect, it } from "vitest";
import { AAGUID_NAMES, passkeyProviderName } from "./passkey-provider-names";

describe("passkeyProviderName", () => {
  it("names well-known passkey providers", () => {
    expect(passkeyProviderName("ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4")).toBe("Google Password Manager");
    expect(passkeyProviderName("fbfc3007-154e-4ecc-8c0b-6e020557d7bd")).toBe("Apple Passwords");
    expect(passkeyProviderName("dd4ec289-e01d-41c9-bb89-70fa845d4bf2")).toBe("iCloud Keychain (Managed)");
    expect(passkeyProviderName("adce0002-35bc-c60a-648b-0b25f1f05503")).toBe("Chrome on Mac");
    expect(passkeyProviderName("08987058-cadc-4b81-b6e1-30de50dcbe96")).toBe("Windows Hello");
    expect(passkeyProviderName("6028b017-b1d4-4c02-b4b3-afcdafc96bb2")).toBe("Windows Hello");
    expect(passkeyProviderName("bada5566-a7aa-401f-bd96-45619a55120d")).toBe("1Password");
    expect(passkeyProviderName("d548826e-79b4-db40-a3d8-11116f7e8349")).toBe("Bitwarden");
    expect(passkeyProviderName("53414d53-554e-4700-0000-000000000000")).toBe("Samsung Pass");
    expect(passkeyProviderName("50726f74-6f6e-5061-7373-50726f746f6e")).toBe("Proton Pass");
    expect(passkeyProviderName("fdb141b2-5d84-443e-8a35-4698c205a502")).toBe("KeePassXC");
  });

  it("ignores case and surrounding whitespace", () => {
    expect(passkeyProviderName("EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4")).toBe("Google Password Manager");
    expect(passkeyProviderName("  Bada5566-A7aa-401f-BD96-45619a55120d\n")).toBe("1Password");
  });

  it("returns undefined for the all-zero AAGUID", () => {
    expect(passkeyProviderName("00000000-0000-0000-0000-000000000000")).toBeUndefined();
  });

  it("returns undefined for unknown, empty or missing AAGUIDs", () => {
    expect(passkeyProviderName("01234567-89ab-cdef-0123-456789abcdef")).toBeUndefined();
    expect(passkeyProviderName("")).toBeUndefined();
    expect(passkeyProviderName(null)).toBeUndefined();
    expect(passkeyProviderName(undefined)).toBeUndefined();
  });

  it("does not fall through to Object.prototype members", () => {
    expect(passkeyProviderName("constructor")).toBeUndefined();
    expect(passkeyProviderName("__proto__")).toBeUndefined();
    expect(passkeyProviderName("toString")).toBeUndefined();
  });
});

describe("AAGUID_NAMES", () => {
  it("has only lowercase hyphenated UUID keys and non-empty names", () => {
    const entries = Object.entries(AAGUID_NAMES);
    expect(entries.length).toBeGreaterThanOrEqual(40);
    for (const [aaguid, name] of entries) {
      expect(aaguid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(name.trim()).not.toBe("");
    }
  });

  it("is frozen", () => {
    expect(Object.isFrozen(AAGUID_NAMES)).toBe(true);
  });
});
