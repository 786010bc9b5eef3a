import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import type { Tenant } from "@/lib/tenants";
import { isAllowedRedirect, withQuery } from "./redirect";

const tenant = { id: "t-1", origins: ["https://app.example.com"] } as Tenant;
const allowed = (url: string, urls: string[] = []) => isAllowedRedirect(tenant, urls, url);

describe("isAllowedRedirect", () => {
  it("allows the tenant's origins, its hosted pages and the provider's URLs (path and below)", () => {
    expect(allowed("https://app.example.com/after?x=1")).toBe(true);
    expect(allowed(`${getConfig().baseUrl}/t/t-1/hosted/login`)).toBe(true);
    expect(allowed("https://other.example/cb", ["https://other.example/cb"])).toBe(true);
    expect(allowed("https://other.example/cb/done", ["https://other.example/cb/"])).toBe(true);
    expect(allowed("https://other.example/", ["https://other.example"])).toBe(true);
  });

  it("refuses everything else, comparing parsed hosts", () => {
    for (const url of [
      "https://app.example.com.evil.test/",
      "https://evil.test/?https://app.example.com",
      "http://app.example.com/",
      "https://app.example.com:8443/",
      "https://user:pw@app.example.com/",
      "javascript:alert(1)",
      "data:text/html,hi",
      "//app.example.com/",
      "/after",
      "",
      `${getConfig().baseUrl}/t/t-2/hosted/login`,
      `${getConfig().baseUrl}/t/t-1/token`,
      // The hosted pages' refusals hold for every case: whitespace, backslashes, an empty user info.
      "https://other.example/cb\\@evil.test",
      "https://other.example/cb /x",
      "https://@other.example/cb",
      `https://other.example/cb?${"a".repeat(2048)}`,
    ]) {
      expect(allowed(url), url).toBe(false);
    }
    for (const url of [
      "https://other.example/cb\\x",
      "https://@other.example/cb",
      "https://other.example/cb x",
    ]) {
      expect(allowed(url, ["https://other.example/cb"]), url).toBe(false);
    }
    expect(allowed("https://other.example/cbx", ["https://other.example/cb"])).toBe(false);
    expect(allowed("https://other.example/", ["https://other.example/cb"])).toBe(false);
  });
});

describe("withQuery", () => {
  it("sets the parameters, keeping the URL's own", () => {
    expect(withQuery("https://app.example.com/a?x=1&error=old", { error: "access_denied" })).toBe(
      "https://app.example.com/a?x=1&error=access_denied",
    );
  });
});
