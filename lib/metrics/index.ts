export { ceremonyOf, countAuditEvent, CEREMONY_KINDS, type CeremonyOutcome } from "./ceremonies";
export { probeDatabase, type DatabaseProbe } from "./database";
export { observeHttpRequest, observePreflight, type RouteLabels } from "./http";
export { metrics, type Metrics } from "./registry";
export {
  authorizeScrape,
  metricsBannerLine,
  metricsClosedWarning,
  renderMetrics,
  scrapeAccess,
  type ScrapeAccess,
} from "./scrape";
export { registerWebhookQueueProbe, webhookDeliveries, type WebhookDeliveryOutcome } from "./webhooks";
