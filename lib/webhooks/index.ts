// lib/webhooks owns the tables webhooks, webhook_events (the outbox), webhook_deliveries and
// webhook_attempts: other modules use these operations, never ./store.
export {
  SUBSCRIBABLE_EVENTS,
  TEST_EVENT,
  WEBHOOK_EVENT_ALIASES,
  WEBHOOK_EVENTS,
  isSubscribableEvent,
  subscriptionsMatching,
  type WebhookEvent,
} from "./events";
export { emitWebhookEvent, emitWebhookEvents, mayDeliver } from "./emit";
export { sessionEventData } from "./session-data";
export {
  CreateWebhookInput,
  callbackOrigin,
  UpdateWebhookInput,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type DeliveryInfo,
} from "./webhooks";
export {
  createWebhookWorker,
  onWebhookOutcome,
  processDueDeliveries,
  releaseDeadLeases,
  startWebhookWorker,
  stopWebhookWorker,
  webhookQueueStats,
  type DeliveryOutcome,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from "./worker";
export { configureWebhooks, DEFAULT_RETRY_SCHEDULE, type WebhookSettings } from "./settings";
export { isAllowedAddress, outboundUrlRefusal } from "./ssrf";
export { sweepWebhookHistory } from "./retention";
export { getDelivery } from "./get-delivery";
export {
  BACKCHANNEL_LOGOUT_EVENT,
  enqueueBackchannelLogout,
  type BackchannelLogout,
} from "./backchannel-logout";
