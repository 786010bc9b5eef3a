import { z } from "zod";
import { defineContract } from "@/lib/contracts/contract";
import { PlatformError } from "./schemas";

const Liveness = z.object({ status: z.literal("ok") }).meta({ id: "Liveness" });

const ReadinessBody = z
  .object({
    status: z.enum(["ready", "unavailable", "draining"]),
    checks: z.object({
      database: z.enum(["ok", "unavailable", "unknown"]),
      migrations: z.enum(["ok", "pending", "unknown"]),
    }),
  })
  .meta({ id: "Readiness" });

export const livez = defineContract({
  surface: "health",
  method: "GET",
  path: "/livez",
  operationId: "getLiveness",
  summary: "Liveness",
  description: "200 while the process runs. It does not touch the database.",
  tags: ["Health"],
  auth: { kind: "none" },
  responses: {
    "200": { description: "The process is alive", content: { "application/json": { schema: Liveness } } },
  },
});

export const readyz = defineContract({
  surface: "health",
  method: "GET",
  path: "/readyz",
  operationId: "getReadiness",
  summary: "Readiness",
  description:
    "200 when the database answers `select 1` within 2 s and every migration is applied; else 503. " +
    "503 `draining` at once (no database check) from the moment the process got SIGTERM, so a load " +
    "balancer stops sending it requests while it finishes those in flight (docs/operations.md).",
  tags: ["Health"],
  auth: { kind: "none" },
  responses: {
    "200": { description: "Ready to serve", content: { "application/json": { schema: ReadinessBody } } },
    "503": { description: "Not ready", content: { "application/json": { schema: ReadinessBody } } },
  },
});

/** `GET /metrics` (docs/metrics.md). */
export const metrics = defineContract({
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
