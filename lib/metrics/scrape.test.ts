import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { metricsBannerLine, metricsClosedWarning, scrapeAccess } from "./scrape";

const TOKEN = "0123456789abcdef0123";
const remote = { SESAME_BASE_URL: "https://auth.example.com" };

describe("security 3.5: who may scrape /metrics (scrapeAccess)", () => {
  it.each([
    ["a public URL without token or admin port", remote, "closed"],
    [
      "a public URL with the admin port (served there only)",
      { ...remote, SESAME_ADMIN_PORT: "9090" },
      "open",
    ],
    ["localhost", {}, "open"],
    ["127.0.0.1", { SESAME_BASE_URL: "http://127.0.0.1:3000" }, "open"],
    ["a public URL with the token", { ...remote, SESAME_METRICS_TOKEN: TOKEN }, "token"],
    ["localhost with the token", { SESAME_METRICS_TOKEN: TOKEN }, "token"],
    [
      "the admin port with the token",
      { ...remote, SESAME_ADMIN_PORT: "9090", SESAME_METRICS_TOKEN: TOKEN },
      "token",
    ],
  ])("security 3.5: %s → %s", (_, env: Record<string, string>, access) => {
    expect(scrapeAccess(parseConfig(env))).toBe(access);
  });

  it("security 3.5: says so at start: a note when closed, and where and how on the banner line", () => {
    expect(metricsClosedWarning(parseConfig(remote))).toMatch(
      /GET \/metrics answers 401 to every scrape.*\n.*SESAME_METRICS_TOKEN nor SESAME_ADMIN_PORT/,
    );
    expect(metricsBannerLine(parseConfig(remote))).toBe(
      "https://auth.example.com/metrics  (closed: every scrape is a 401 until SESAME_METRICS_TOKEN is set)",
    );
    expect(metricsBannerLine(parseConfig({ ...remote, SESAME_METRICS_TOKEN: TOKEN }))).toBe(
      "https://auth.example.com/metrics  (Authorization: Bearer <SESAME_METRICS_TOKEN>)",
    );
    expect(metricsBannerLine(parseConfig({ ...remote, SESAME_ADMIN_PORT: "9090" }))).toBe(
      "/metrics on the admin port 9090  (open: not reachable from the internet)",
    );
    for (const env of [
      {},
      { ...remote, SESAME_ADMIN_PORT: "9090" },
      { ...remote, SESAME_METRICS_TOKEN: TOKEN },
    ]) {
      expect(metricsClosedWarning(parseConfig(env))).toBeUndefined();
    }
  });
});
