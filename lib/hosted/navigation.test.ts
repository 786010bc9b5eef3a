import { describe, expect, it } from "vitest";
import { isSameOriginNavigation } from "./navigation";

const BASE = "https://auth.example.test";

describe("security 9: a cross-site navigation to the hosted logout asks for a click", () => {
  const navigation = (headers: Record<string, string>) => isSameOriginNavigation(new Headers(headers), BASE);

  it.each([
    [{ "sec-fetch-site": "same-origin" }, true],
    [{ "sec-fetch-site": "none" }, true],
    [{ "sec-fetch-site": "same-site" }, false],
    [{ "sec-fetch-site": "cross-site" }, false],
    [{ "sec-fetch-site": "other" }, false],
    // Sec-Fetch-Site decides when sent, whatever the Referer says.
    [{ "sec-fetch-site": "cross-site", referer: `${BASE}/t/x/hosted/profile` }, false],
    [{ "sec-fetch-site": "same-origin", referer: "https://evil.test/" }, true],
    // Without it: the Referer's origin must be Sesame's public origin.
    [{ referer: `${BASE}/t/x/hosted/profile?lang=de` }, true],
    [{ referer: `${BASE}/` }, true],
    [{ referer: "https://evil.test/" }, false],
    [{ referer: "https://auth.example.test.evil.test/" }, false],
    [{ referer: "http://auth.example.test/" }, false],
    [{ referer: "https://auth.example.test:8443/" }, false],
    [{ referer: "not a url" }, false],
    [{}, false],
  ])("%j → %s", (headers, expected) => {
    expect(navigation(headers)).toBe(expected);
  });
});
