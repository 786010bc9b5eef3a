import { describe, expect, it, vi } from "vitest";
import { GET as metricsRoute } from "@/app/(health)/metrics/route";
import { call } from "@/tests/helpers/http";
import { scrape, sample } from "./metrics-scrape";

const TOKEN = "scrape-token-0123456789abcdef";
vi.stubEnv("SESAME_METRICS_TOKEN", TOKEN);

describe("GET /metrics with SESAME_METRICS_TOKEN", () => {
  it.each([
    ["no Authorization", {}],
    ["a wrong token", { authorization: "Bearer scrape-token-0123456789abcdeX" }],
    ["a prefix of the token", { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ["the token without Bearer", { authorization: TOKEN }],
    ["Basic", { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` }],
  ])("answers 401 in the platform shape to %s", async (_, headers: Record<string, string>) => {
    const res = await call(metricsRoute, "/metrics", { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
  });

  it("answers the metrics to Authorization: Bearer <token>", async () => {
    const text = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(sample(text, "sesame_database_up")).toBe(1);
    // The refused scrapes above are requests like any other.
    const refused = { surface: "health", method: "GET", route: "/metrics", status: "401" };
    expect(sample(text, "sesame_http_requests_total", refused)).toBe(5);
  });
});
