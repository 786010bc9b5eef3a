import { describe, expect, it } from "vitest";
import { MAX_REDIRECT_LENGTH, safeRedirect } from "./redirect";

const ID = "0b6a5f3e-5c1d-4b8e-9a4f-2f3c4d5e6f70";
const OTHER = "11111111-2222-4333-8444-555555555555";
const tenant = {
  id: ID,
  origins: ["https://app.good.test", "http://localhost:3000", "https://good.test:8443"],
};
const FALLBACK = `/t/${ID}/hosted/profile`;

const check = (raw: string | undefined) => safeRedirect(tenant, raw, FALLBACK);

describe("safeRedirect", () => {
  describe("accepts", () => {
    it.each([
      ["https://app.good.test", "https://app.good.test/"],
      ["https://app.good.test/", "https://app.good.test/"],
      ["https://app.good.test/dashboard?tab=1#top", "https://app.good.test/dashboard?tab=1#top"],
      ["http://localhost:3000/after-login", "http://localhost:3000/after-login"],
      ["https://good.test:8443/x", "https://good.test:8443/x"],
      // Scheme and host are case-insensitive, a default port is no port: the origin is the same.
      ["HTTPS://APP.GOOD.TEST/Path", "https://app.good.test/Path"],
      ["https://app.good.test:443/x", "https://app.good.test/x"],
      // Userinfo-looking text after the authority is only a path or query.
      ["https://app.good.test/@evil.test", "https://app.good.test/@evil.test"],
      ["https://app.good.test/?next=https://evil.test", "https://app.good.test/?next=https://evil.test"],
      // Encoded characters stay encoded.
      ["https://app.good.test/a%20b?q=%2F%2Fevil", "https://app.good.test/a%20b?q=%2F%2Fevil"],
      // A percent-encoded host is decoded by every WHATWG parser; the normalised URL is what is returned.
      ["https://app%2egood.test/x", "https://app.good.test/x"],
    ])("the tenant's origin: %j", (raw, expected) => {
      expect(check(raw)).toBe(expected);
    });

    it.each([
      [`/t/${ID}`, `/t/${ID}`],
      [`/t/${ID}/`, `/t/${ID}/`],
      [`/t/${ID}/hosted/profile`, `/t/${ID}/hosted/profile`],
      [`/t/${ID}/hosted/profile?lang=de#emails`, `/t/${ID}/hosted/profile?lang=de#emails`],
      [`/t/${ID.toUpperCase()}/hosted/profile`, `/t/${ID.toUpperCase()}/hosted/profile`],
      // Dot segments are resolved before the check; staying inside the tenant's URL is fine.
      [`/t/${ID}/hosted/x/../profile`, `/t/${ID}/hosted/profile`],
      [`/t/${ID}/hosted/./login`, `/t/${ID}/hosted/login`],
      // `//` inside the path is a path on Sesame, not a host.
      [`/t/${ID}//evil.test`, `/t/${ID}//evil.test`],
      [
        `/t/${ID}/hosted/login?redirect_to=https://evil.test`,
        `/t/${ID}/hosted/login?redirect_to=https://evil.test`,
      ],
    ])("a path under the tenant's URL: %j", (raw, expected) => {
      expect(check(raw)).toBe(expected);
    });

    it("a value of exactly the maximum length", () => {
      const prefix = "https://app.good.test/";
      const raw = prefix + "a".repeat(MAX_REDIRECT_LENGTH - prefix.length);
      expect(raw).toHaveLength(MAX_REDIRECT_LENGTH);
      expect(check(raw)).toBe(raw);
    });
  });

  describe("falls back for", () => {
    it.each([undefined, ""])("a missing value: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it.each([
      "https://evil.test/",
      "https://evil.test/https://app.good.test",
      "http://app.good.test/", // the tenant allows https only for this host
      "https://app.good.test:444/",
      "https://good.test/", // port 8443 only
      "https://sub.app.good.test/",
      "https://good.test.evil.test/",
      "https://app.good.test.evil.test/",
      "https://app.good.test./", // a trailing dot is another origin
      "http://localhost:3001/",
      "http://127.0.0.1:3000/", // not the same origin as localhost
      "https://аpp.good.test/", // Cyrillic а: punycode host
    ])("an origin the tenant does not list: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it.each([
      "https://app.good.test@evil.test/",
      "https://app.good.test:443@evil.test/",
      "https://user:pass@app.good.test/",
      "https://user@app.good.test/",
      "https://:@app.good.test/",
      "https://@app.good.test/",
      "https://app.good.test%40evil.test/",
      "https://evil.test#@app.good.test/",
      "https://evil.test?@app.good.test/",
    ])("user info or a disguised host: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it.each([
      "//evil.test",
      "//evil.test/path",
      "///evil.test",
      "////evil.test",
      "//app.good.test/", // even a listed host: protocol-relative is refused
      "/\\evil.test",
      "\\\\evil.test",
      "\\/evil.test",
      "/\t/evil.test",
      "/\n/evil.test",
      "/\r\n/evil.test",
      " /t/" + ID,
      "/t/" + ID + " ",
      "https://app.good.test\\@evil.test/",
      "https:\\\\evil.test",
      "https://app.good.test/\u0000",
      "https://app.good.test/\u2028",
      "https://app.good.test/a b",
    ])("protocol-relative, backslash, whitespace and control tricks: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it.each([
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)",
      "javascript://app.good.test/%0aalert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://app.good.test/",
      "blob:https://app.good.test/1234",
      "mailto:a@good.test",
      "https:app.good.test",
      "https:/app.good.test",
      "http:/\\evil.test",
      "app.good.test/path",
      "evil.test",
      "?redirect=1",
      "#top",
      ".",
      "../t/" + ID,
    ])("other schemes and non-URLs: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it.each([
      "/",
      "/evil",
      "/t",
      "/t/",
      `/t/${OTHER}/hosted/profile`,
      `/t/${ID}x/hosted/profile`,
      `/t/${ID}-evil`,
      `/t/${ID}/../${OTHER}/hosted/profile`,
      `/t/${ID}/%2e%2e/${OTHER}`,
      `/t/${ID}/hosted/../../../examples`,
      `/passkey/${ID}`,
      "/examples/hanko-elements",
      "/%2F%2Fevil.test",
    ])("a path outside the tenant's URL: %j", (raw) => {
      expect(check(raw)).toBe(FALLBACK);
    });

    it("values over 2048 characters", () => {
      const prefix = "https://app.good.test/";
      const long = prefix + "a".repeat(MAX_REDIRECT_LENGTH + 1 - prefix.length);
      expect(long).toHaveLength(MAX_REDIRECT_LENGTH + 1);
      expect(check(long)).toBe(FALLBACK);
      expect(check(`/t/${ID}/` + "a".repeat(5000))).toBe(FALLBACK);
    });

    it("any URL when the tenant lists no origins", () => {
      const bare = { id: ID, origins: [] };
      expect(safeRedirect(bare, "https://app.good.test/", FALLBACK)).toBe(FALLBACK);
      expect(safeRedirect(bare, `/t/${ID}/hosted/profile`, FALLBACK)).toBe(`/t/${ID}/hosted/profile`);
    });
  });

  it("returns the fallback exactly as given", () => {
    expect(safeRedirect(tenant, "https://evil.test", "https://app.good.test/home")).toBe(
      "https://app.good.test/home",
    );
  });

  it("never returns a place outside the allowed ones (every combination of up to 4 pieces)", () => {
    const pieces = [
      "https://",
      "http://",
      "//",
      "/",
      "\\",
      "@",
      "app.good.test",
      "evil.test",
      "localhost:3000",
      `/t/${ID}`,
      "/..",
      "%2e%2e",
      "#",
      "?",
    ];
    let combos: string[] = [""];
    let accepted = 0;
    for (let length = 1; length <= 4; length++) {
      combos = combos.flatMap((prefix) => pieces.map((piece) => prefix + piece));
      for (const raw of combos) {
        const result = check(raw);
        if (result === FALLBACK) continue;
        accepted++;
        if (result.startsWith("/")) {
          expect(result.startsWith("//"), raw).toBe(false);
          const resolved = new URL(result, "https://sesame.test");
          expect(resolved.origin, raw).toBe("https://sesame.test");
          expect(resolved.pathname.startsWith(`/t/${ID}`), raw).toBe(true);
        } else {
          const url = new URL(result);
          expect(tenant.origins, raw).toContain(url.origin);
          expect(url.username + url.password, raw).toBe("");
        }
      }
    }
    // The check above is not vacuous.
    expect(accepted).toBeGreaterThan(100);
  });
});
