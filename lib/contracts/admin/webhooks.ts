import { z } from "zod";
import type { WebhookAttemptRow, WebhookRow } from "@/lib/db/schema";
import { defineContract } from "@/lib/contracts/contract";
import { SUBSCRIBABLE_EVENTS } from "@/lib/webhooks/events";
import type { DeliveryInfo } from "@/lib/webhooks";
import { TenantIdParam, platformErrors } from "../schemas";
import { pageQuery, pageResponse } from "./pagination";

const json = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  content: { "application/json": { schema } },
});

const tenantParams = z.object({ tenantId: TenantIdParam });
const webhookParams = tenantParams.extend({
  webhookId: z.uuid("must be a UUID").meta({ description: "The webhook's id" }),
});
const deliveryParams = webhookParams.extend({
  deliveryId: z.uuid("must be a UUID").meta({ description: "The delivery's id" }),
});

const admin = {
  surface: "admin",
  auth: { kind: "admin-key" },
  loadsTenant: true,
  tags: ["Webhooks"] as string[],
} as const;

const timestamp = z.iso.datetime({ offset: true });

const EventName = z.enum(SUBSCRIBABLE_EVENTS as [string, ...string[]], {
  error: (issue) => `unknown event ${JSON.stringify(issue.input)}`,
});

export const Webhook = z
  .object({
    id: z.uuid(),
    callback: z.string(),
    enabled: z.boolean(),
    failures: z.number().int().meta({ description: "Failed deliveries since the last success" }),
    expires_at: timestamp,
    events: z.array(z.object({ id: z.uuid(), event: z.string() })),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Webhook", description: "Hanko's webhook" });

export const webhookWire = (row: WebhookRow): z.input<typeof Webhook> => ({
  id: row.id,
  callback: row.callback,
  enabled: row.enabled,
  failures: row.failures,
  expires_at: row.expiresAt.toISOString(),
  events: row.events.map(({ id, event }) => ({ id, event })),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({
    description: "The signing secret (`whsec_…`): shown only in this response",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).meta({ id: "CreatedWebhook" });

export const WebhookAttempt = z
  .object({
    time: timestamp,
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    response: z.string().nullable().meta({ description: "The first 2 KiB of the response body" }),
    error: z
      .string()
      .nullable()
      .meta({
        description:
          "null on success; `http_<status>`, `timeout`, `address_refused`, `dns_failed`, `dns_timeout`, " +
          "`connection_failed: …`, `endpoint_disabled`, `internal_error`",
      }),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookDelivery = z
  .object({
    id: z.uuid().meta({ description: "The `webhook-id` header of every attempt of this delivery" }),
    webhook_id: z.uuid(),
    event_id: z.uuid().meta({ description: "The event; a replay is a new delivery of the same event" }),
    event: z.string(),
    data: z.unknown(),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    attempts: z.array(WebhookAttempt),
  })
  .meta({ id: "WebhookDelivery" });

const attemptWire = (row: WebhookAttemptRow): z.input<typeof WebhookAttempt> => ({
  time: row.attemptedAt.toISOString(),
  status_code: row.statusCode,
  duration_ms: row.durationMs,
  response: row.response,
  error: row.error,
});

export const deliveryWire = ({
  delivery,
  event,
  attempts,
}: DeliveryInfo): z.input<typeof WebhookDelivery> => ({
  id: delivery.id,
  webhook_id: delivery.webhookId,
  event_id: event.id,
  event: event.event,
  data: event.data,
  status: delivery.status,
  attempt_count: delivery.attemptCount,
  next_attempt_at: delivery.status === "pending" ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
  created_at: delivery.createdAt.toISOString(),
  updated_at: delivery.updatedAt.toISOString(),
  attempts: attempts.map(attemptWire),
});

const WebhookBody = z.object({
  callback: z
    .string()
    .max(2048)
    .meta({ description: "https URL (http to localhost only with SESAME_WEBHOOKS_ALLOW_PRIVATE=true)" }),
  events: z
    .array(EventName)
    .min(1)
    .max(64)
    .meta({ description: "Event names or prefixes (`user` receives every `user.*` event), or aliases" }),
});

export const listWebhooks = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/webhooks",
  operationId: "listWebhooks",
  summary: "List webhooks",
  description: "Hanko's shape: `database` holds the tenant's endpoints, `config` is always empty.",
  params: tenantParams,
  responses: {
    "200": json(
      "The webhooks",
      z.object({ database: z.array(Webhook), config: z.array(Webhook) }).meta({ id: "WebhookList" }),
    ),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const createWebhook = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/webhooks",
  operationId: "createWebhook",
  summary: "Create a webhook",
  description:
    "The callback must be https and resolve to public addresses only (no loopback, private, link-local, " +
    "CGNAT, unique-local, multicast or metadata address). The response carries the signing secret, " +
    "shown only here. A tenant has at most 20 webhooks (409 beyond).",
  params: tenantParams,
  body: WebhookBody,
  responses: {
    "201": json("The new webhook", CreatedWebhook),
    ...platformErrors(400, 401, 404, 500),
    "409": { ...platformErrors(409)["409"]!, description: "Conflict: the tenant has 20 webhooks already" },
  },
});

export const getWebhook = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}",
  operationId: "getWebhook",
  summary: "Get a webhook",
  params: webhookParams,
  responses: { "200": json("The webhook", Webhook), ...platformErrors(400, 401, 404, 500) },
});

export const updateWebhook = defineContract({
  ...admin,
  method: "PUT",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}",
  operationId: "updateWebhook",
  summary: "Replace a webhook's callback, events and state",
  description: "Re-enabling a disabled webhook resets its failure count.",
  params: webhookParams,
  body: WebhookBody.extend({ enabled: z.boolean() }),
  responses: { "200": json("The webhook", Webhook), ...platformErrors(400, 401, 404, 500) },
});

export const deleteWebhook = defineContract({
  ...admin,
  method: "DELETE",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}",
  operationId: "deleteWebhook",
  summary: "Delete a webhook (and its delivery log)",
  params: webhookParams,
  responses: { "204": { description: "Deleted" }, ...platformErrors(400, 401, 404, 500) },
});

export const listWebhookDeliveries = defineContract({
  ...admin,
  method: "GET",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "A webhook's deliveries and their attempts",
  description: "Newest first, paged (`page`, `per_page`); `X-Total-Count` gives the total, `Link` the pages.",
  params: webhookParams,
  query: z.object({
    ...pageQuery("Deliveries"),
    status: z.enum(["pending", "succeeded", "failed"]).optional(),
  }),
  responses: {
    "200": pageResponse("The deliveries", WebhookDelivery, "Matching deliveries"),
    ...platformErrors(400, 401, 404, 500),
  },
});

export const replayWebhookDelivery = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay",
  operationId: "replayWebhookDelivery",
  rateLimit: "webhook",
  summary: "Send a delivery's event again",
  description: "A new delivery (new `webhook-id`) of the same event to this webhook, due now.",
  params: deliveryParams,
  responses: { "202": json("The new delivery", WebhookDelivery), ...platformErrors(400, 401, 404, 500) },
});

export const testWebhook = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}/test",
  operationId: "testWebhook",
  rateLimit: "webhook",
  summary: "Send a test event",
  description: "A `webhook.test` event to this webhook only, whatever it subscribes to.",
  params: webhookParams,
  responses: { "202": json("The test delivery", WebhookDelivery), ...platformErrors(400, 401, 404, 500) },
});

export const rotateWebhookSecret = defineContract({
  ...admin,
  method: "POST",
  path: "/t/{tenantId}/admin/webhooks/{webhookId}/rotate_secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate a webhook's signing secret",
  description:
    "Returns the new secret (shown only here). For 24 hours deliveries carry two signatures, with the " +
    "new and the old secret, so receivers can switch without losing a delivery.",
  params: webhookParams,
  responses: {
    "200": json("The new secret", z.object({ secret: z.string() }).meta({ id: "WebhookSecret" })),
    ...platformErrors(400, 401, 404, 500),
  },
});
