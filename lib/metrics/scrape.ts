import { getConfig, isLocalUrl, type Config } from "@/lib/config";
import { constantTimeEqual } from "@/lib/crypto";
import { Unauthorized } from "@/lib/errors";
import { beginScrape, metrics } from "./registry";

/**
 * Who may scrape: with `SESAME_METRICS_TOKEN` set, only `Authorization: Bearer <that token>` (compared
 * in constant time), else 401. Unset, anyone who reaches `/metrics` may: set the token, or serve
 * `/metrics` on the private admin port only (`SESAME_ADMIN_PORT`).
 */
export function authorizeScrape(authorization: string | null): void {
  const token = getConfig().metricsToken;
  if (token === undefined) return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match || !constantTimeEqual(match[1] ?? "", token)) throw new Unauthorized();
}

/** The metrics in Prometheus's text format, with its content type. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  beginScrape();
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/**
 * For the start-up banner (lib/boot, beside outboxWarning): `/metrics` open to the public port of an
 * install that is not on localhost. Undefined when the token or the admin port guards it.
 */
export function metricsExposureWarning(config: Config): string | undefined {
  if (config.metricsToken || config.adminPort !== undefined || isLocalUrl(config.baseUrl)) return undefined;
  return [
    "!!! WARNING: GET /metrics is open: SESAME_METRICS_TOKEN and SESAME_ADMIN_PORT are both unset.",
    "!!! Anyone who reaches Sesame can read its metrics (routes, traffic, failure rates). Set one of them",
    "!!! (docs/metrics.md).",
  ].join("\n");
}
