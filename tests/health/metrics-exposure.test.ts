import { describe, expect, it, vi } from "vitest";
import { GET as metricsRoute } from "@/app/(health)/metrics/route";
import { call } from "@/tests/helpers/http";

// A public URL that is not localhost, and neither SESAME_METRICS_TOKEN nor SESAME_ADMIN_PORT: /metrics
// could face the internet (metrics.test.ts: localhost, open; metrics-token.test.ts: the token).
vi.stubEnv("SESAME_BASE_URL", "https://auth.example.com");
vi.stubEnv("SESAME_METRICS_TOKEN", "");
vi.stubEnv("SESAME_ADMIN_PORT", "");

describe("security 3.5: /metrics is closed by default where it could face the internet", () => {
  it.each([
    ["no Authorization", {}],
    ["any Bearer token", { authorization: "Bearer 0123456789abcdef0123456789abcdef" }],
    ["an empty Bearer token", { authorization: "Bearer " }],
  ])(
    "security 3.5: a public URL without SESAME_METRICS_TOKEN: %s is 401 in the platform shape",
    async (_, headers: Record<string, string>) => {
      const res = await call(metricsRoute, "/metrics", { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
    },
  );
});
