import { getConfig, isLocalUrl, type Config } from "@/lib/config";
import { constantTimeEqual } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { beginScrape, metrics } from "./registry";

/**
 * Who may scrape `/metrics`:
 * - `token`: `SESAME_METRICS_TOKEN` is set: only `Authorization: Bearer <that token>`;
 * - `open`: no token, but `/metrics` cannot face the internet: it is served on the private admin port only
 *   (`SESAME_ADMIN_PORT`), or the public URL is localhost (a developer's machine);
 * - `closed`: no token on a public URL without the admin port: every scrape is refused until the token
 *   (or the admin port) is set, and the start says so.
 */
export type ScrapeAccess = "token" | "open" | "closed";

export function scrapeAccess(config: Config): ScrapeAccess {
  if (config.metricsToken) return "token";
  if (config.adminPort !== undefined || isLocalUrl(config.baseUrl)) return "open";
  return "closed";
}

/** Refuses a scrape (401) that {@link scrapeAccess} does not let in; the token is compared in constant time. */
export function authorizeScrape(authorization: string | null): void {
  const config = getConfig();
  const access = scrapeAccess(config);
  if (access === "open") return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (access === "closed" || !match || !constantTimeEqual(match[1] ?? "", config.metricsToken ?? "")) {
    throw new AppError("METRICS_TOKEN_INVALID");
  }
}

/** The metrics in Prometheus's text format, with its content type. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  beginScrape();
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** Where and how `/metrics` may be scraped, for the start-up banner. */
export function metricsBannerLine(config: Config): string {
  const where =
    config.adminPort !== undefined
      ? `/metrics on the admin port ${config.adminPort}`
      : `${config.baseUrl}/metrics`;
  const how = {
    token: "Authorization: Bearer <SESAME_METRICS_TOKEN>",
    open: "open: not reachable from the internet",
    closed: "closed: every scrape is a 401 until SESAME_METRICS_TOKEN is set",
  }[scrapeAccess(config)];
  return `${where}  (${how})`;
}

/**
 * For the start-up banner and log (lib/boot, beside outboxWarning): `/metrics` refuses every scrape on a
 * public URL without the token or the admin port. Undefined when it can be scraped.
 */
export function metricsClosedWarning(config: Config): string | undefined {
  if (scrapeAccess(config) !== "closed") return undefined;
  return [
    "!!! NOTE: GET /metrics answers 401 to every scrape: Sesame is not on localhost and neither",
    "!!! SESAME_METRICS_TOKEN nor SESAME_ADMIN_PORT is set. Set SESAME_METRICS_TOKEN and scrape with",
    "!!! Authorization: Bearer <token>, or serve /metrics on the private SESAME_ADMIN_PORT (docs/metrics.md).",
  ].join("\n");
}
