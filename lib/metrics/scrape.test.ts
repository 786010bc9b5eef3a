import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { metricsExposureWarning } from "./scrape";

describe("metricsExposureWarning", () => {
  const remote = { SESAME_BASE_URL: "https://auth.example.com" };

  it("warns when /metrics is open on an install that is not on localhost", () => {
    expect(metricsExposureWarning(parseConfig(remote))).toMatch(/GET \/metrics is open/);
  });

  it.each([
    ["on localhost", {}],
    ["with a token", { ...remote, SESAME_METRICS_TOKEN: "0123456789abcdef0123" }],
    ["with the admin port", { ...remote, SESAME_ADMIN_PORT: "9090" }],
  ])("is silent %s", (_, env: Record<string, string>) => {
    expect(metricsExposureWarning(parseConfig(env))).toBeUndefined();
  });
});
