import { z } from "zod";
import { PlatformError } from "@/lib/contracts/schemas";
import { defineContract } from "@/lib/http/contract";

/**
 * `GET /metrics`. Lives here until it joins lib/contracts/health.ts (the health surface's OpenAPI
 * document lists that module's exports).
 */
export const metricsContract = defineContract({
  surface: "health",
  method: "GET",
  path: "/metrics",
  operationId: "getMetrics",
  summary: "Prometheus metrics",
  description:
    "The process's metrics in Prometheus's text format (docs/metrics.md). With `SESAME_METRICS_TOKEN` set, " +
    "send `Authorization: Bearer <token>`. With `SESAME_ADMIN_PORT` set, served on the admin port only.",
  tags: ["Health"],
  auth: { kind: "none" },
  responses: {
    "200": {
      description: "Prometheus text exposition format 0.0.4",
      content: { "text/plain": { schema: z.string() } },
    },
    "401": {
      description: "`SESAME_METRICS_TOKEN` is set and the request does not carry it",
      content: { "application/json": { schema: PlatformError } },
    },
  },
});
