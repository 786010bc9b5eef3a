import { metrics, probes } from "./registry";

/** How a webhook delivery attempt ended: the label of `sesame_webhook_deliveries_total`. */
export type WebhookDeliveryOutcome = "succeeded" | "retry" | "failed";

/**
 * `sesame_webhook_deliveries_total{outcome}`: the worker calls `webhookDeliveries.inc({ outcome })` once
 * per attempt. `outcome` is one of {@link WebhookDeliveryOutcome}.
 */
export const webhookDeliveries = {
  inc(labels: { outcome: WebhookDeliveryOutcome }, value = 1): void {
    metrics().webhookDeliveries.inc(labels, value);
  },
};

/**
 * Registers the collect-time probe behind `sesame_webhook_queue_depth` and
 * `sesame_webhook_oldest_pending_seconds`: called once per scrape (both gauges share the call); a probe
 * that throws or takes more than 2 s makes both gauges read NaN for that scrape. Registering again
 * replaces the probe (one per process, all tenants).
 */
export function registerWebhookQueueProbe(
  probe: () => Promise<{ depth: number; oldestPendingSeconds: number }>,
): void {
  probes().webhookQueue = probe;
}
