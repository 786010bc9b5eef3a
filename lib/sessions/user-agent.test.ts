import { describe, expect, it } from "vitest";
import { userAgentName } from "./user-agent";

describe("userAgentName", () => {
  it.each([
    [
      "Chrome on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome (Windows)",
    ],
    [
      "Chrome on macOS",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome (Mac OS X)",
    ],
    [
      "Chrome on Linux",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Chrome (Linux)",
    ],
    [
      "Chrome on Android",
      "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome (Android)",
    ],
    [
      "Firefox on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
      "Firefox (Windows)",
    ],
    [
      "Firefox on macOS",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0",
      "Firefox (Mac OS X)",
    ],
    [
      "Firefox on Android",
      "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
      "Firefox (Android)",
    ],
    [
      "Safari on macOS",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
      "Safari (Mac OS X)",
    ],
    [
      "Safari on iPhone",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari (iOS)",
    ],
    [
      "Safari on iPad",
      "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Safari (iOS)",
    ],
    [
      "Edge on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge (Windows)",
    ],
    [
      "Opera on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
      "Opera (Windows)",
    ],
  ])("names %s as Browser (OS)", (_name, raw, expected) => {
    expect(userAgentName(raw)).toBe(expected);
  });

  it("names the browser alone when the system is unknown", () => {
    expect(userAgentName("Mozilla/5.0 (compatible) Firefox/133.0")).toBe("Firefox");
  });

  it("names the system alone when the browser is unknown", () => {
    expect(userAgentName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko")).toBe("Windows");
  });

  it("keeps the first 64 characters of an agent it does not know", () => {
    const raw = `curl/8.5.0 ${"x".repeat(100)}`;
    expect(userAgentName(raw)).toBe(raw.slice(0, 64));
    expect(userAgentName("curl/8.5.0")).toBe("curl/8.5.0");
  });
});
