import { randomUUID } from "node:crypto";
import { z } from "zod";
import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type {
  WebhookAttemptRow,
  WebhookDeliveryStatus,
  WebhookRow,
  WebhookSubscription,
} from "@/lib/db/schema";
import { AppError, ValidationFailed, formatZodIssues } from "@/lib/errors";
import { isSubscribableEvent, TEST_EVENT } from "./events";
import { newWebhookSecret, sealWebhookSecret } from "./secret";
import { CallbackRefused, resolveCallback } from "./ssrf";
import {
  findDelivery,
  insertDelivery,
  insertEventForWebhook,
  selectAttempts,
  selectDeliveries,
  type DeliveryWithEvent,
} from "./delivery-store";
import {
  countWebhooksLocked,
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  selectWebhooks,
  updateWebhookRow,
} from "./store";

export const MAX_CALLBACK_LENGTH = 2048;
/** Endpoints per tenant at most: each event fans out to every matching one. */
export const MAX_WEBHOOKS_PER_TENANT = 20;

/**
 * What the audit log keeps of a callback: its origin (`scheme://host[:port]`). The path, query and
 * userinfo may carry a secret (`https://hooks.example/t/<token>`), and audit rows are widely readable.
 */
export function callbackOrigin(callback: string): string {
  try {
    return new URL(callback).origin;
  } catch {
    return "invalid";
  }
}

const WebhookInput = z.object({
  callback: z.string().trim().min(1).max(MAX_CALLBACK_LENGTH),
  events: z
    .array(z.string())
    .min(1)
    .max(64)
    .refine((events) => events.every(isSubscribableEvent), "contains an unknown event"),
});
export const CreateWebhookInput = WebhookInput;
export type CreateWebhookInput = z.input<typeof CreateWebhookInput>;
export const UpdateWebhookInput = WebhookInput.extend({ enabled: z.boolean() });
export type UpdateWebhookInput = z.input<typeof UpdateWebhookInput>;

function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ValidationFailed(formatZodIssues(parsed.error, "body"));
  return parsed.data;
}

/** The callback passes the SSRF guard now (scheme and every resolved address), else 400. */
async function checkCallback(callback: string): Promise<void> {
  try {
    await resolveCallback(callback);
  } catch (error) {
    if (error instanceof CallbackRefused) throw new ValidationFailed([`body.${error.message}`]);
    throw error;
  }
}

/** The subscriptions as Hanko stores them (`{id, event}`), one per distinct name; kept ids stay. */
function subscriptions(events: string[], previous: WebhookSubscription[] = []): WebhookSubscription[] {
  return [...new Set(events)].map(
    (event) => previous.find((entry) => entry.event === event) ?? { id: randomUUID(), event },
  );
}

export async function listWebhooks(tenantId: string): Promise<WebhookRow[]> {
  return selectWebhooks(tenantId);
}

export async function getWebhook(tenantId: string, webhookId: string): Promise<WebhookRow> {
  const row = await findWebhook(tenantId, webhookId);
  if (!row) throw new AppError("WEBHOOK_NOT_FOUND", "webhook not found");
  return row;
}

/**
 * A new endpoint; its secret is returned here only. Audited as `webhook.created`. A tenant has at most
 * {@link MAX_WEBHOOKS_PER_TENANT} (else WEBHOOK_LIMIT_REACHED, 409).
 */
export async function createWebhook(
  tenantId: string,
  input: CreateWebhookInput,
  context: AuditContext,
): Promise<{ webhook: WebhookRow; secret: string }> {
  const { callback, events } = parseInput(CreateWebhookInput, input);
  await checkCallback(callback);
  const id = randomUUID();
  const secret = newWebhookSecret();
  return transaction(async () => {
    if ((await countWebhooksLocked(tenantId)) >= MAX_WEBHOOKS_PER_TENANT)
      throw new AppError("WEBHOOK_LIMIT_REACHED", undefined, {
        details: [`a tenant has at most ${MAX_WEBHOOKS_PER_TENANT} webhooks; delete one first`],
      });
    const webhook = await insertWebhook({
      id,
      tenantId,
      callback,
      events: subscriptions(events),
      secretEncrypted: sealWebhookSecret(tenantId, id, secret),
    });
    await recordAuditEvent(tenantId, {
      ...context,
      type: "webhook.created",
      details: { webhookId: id, callbackOrigin: callbackOrigin(callback), events },
    });
    return { webhook, secret };
  });
}

/** Replaces callback, events and enabled (Hanko's PUT). Re-enabling starts a fresh failure streak. */
export async function updateWebhook(
  tenantId: string,
  webhookId: string,
  input: UpdateWebhookInput,
  context: AuditContext,
): Promise<WebhookRow> {
  const { callback, events, enabled } = parseInput(UpdateWebhookInput, input);
  await getWebhook(tenantId, webhookId);
  await checkCallback(callback);
  return transaction(async () => {
    const current = await findWebhook(tenantId, webhookId, { lock: true });
    if (!current) throw new AppError("WEBHOOK_NOT_FOUND", "webhook not found");
    const reenabled = enabled && !current.enabled;
    const row = await updateWebhookRow(tenantId, webhookId, {
      callback,
      events: subscriptions(events, current.events),
      enabled,
      ...(reenabled ? { failures: 0, failingSince: null } : {}),
    });
    await recordAuditEvent(tenantId, {
      ...context,
      type: "webhook.updated",
      details: { webhookId, callbackOrigin: callbackOrigin(callback), events, enabled },
    });
    return row!;
  });
}

export async function deleteWebhook(
  tenantId: string,
  webhookId: string,
  context: AuditContext,
): Promise<void> {
  await transaction(async () => {
    if (!(await deleteWebhookRow(tenantId, webhookId)))
      throw new AppError("WEBHOOK_NOT_FOUND", "webhook not found");
    await recordAuditEvent(tenantId, { ...context, type: "webhook.deleted", details: { webhookId } });
  });
}

/** A new secret; deliveries carry signatures with both for the next 24 hours. */
export async function rotateWebhookSecret(
  tenantId: string,
  webhookId: string,
  context: AuditContext,
): Promise<{ secret: string }> {
  const secret = newWebhookSecret();
  await transaction(async () => {
    const current = await findWebhook(tenantId, webhookId, { lock: true });
    if (!current) throw new AppError("WEBHOOK_NOT_FOUND", "webhook not found");
    await updateWebhookRow(tenantId, webhookId, {
      secretEncrypted: sealWebhookSecret(tenantId, webhookId, secret),
      previousSecretEncrypted: current.secretEncrypted,
      previousSecretUntil: new Date(Date.now() + ROTATION_OVERLAP_MS),
    });
    await recordAuditEvent(tenantId, {
      ...context,
      type: "webhook.secret_rotated",
      details: { webhookId },
    });
  });
  return { secret };
}

export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface DeliveryInfo extends DeliveryWithEvent {
  attempts: WebhookAttemptRow[];
}

async function withAttempts(rows: DeliveryWithEvent[]): Promise<DeliveryInfo[]> {
  const attempts = await selectAttempts(rows.map((row) => row.delivery.id));
  return rows.map((row) => ({
    ...row,
    attempts: attempts.filter((attempt) => attempt.deliveryId === row.delivery.id),
  }));
}

/** A page of the endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  tenantId: string,
  webhookId: string,
  options: { status?: WebhookDeliveryStatus; page: number; perPage: number },
): Promise<{ deliveries: DeliveryInfo[]; total: number }> {
  await getWebhook(tenantId, webhookId);
  const { rows, total } = await selectDeliveries(tenantId, webhookId, {
    status: options.status,
    limit: options.perPage,
    offset: (options.page - 1) * options.perPage,
  });
  return { deliveries: await withAttempts(rows), total };
}

/** A new delivery of a past delivery's event to the same endpoint, due now. Audited. */
export async function replayDelivery(
  tenantId: string,
  webhookId: string,
  deliveryId: string,
  context: AuditContext,
): Promise<DeliveryInfo> {
  return transaction(async () => {
    await getWebhook(tenantId, webhookId);
    const original = await findDelivery(tenantId, webhookId, deliveryId);
    if (!original) throw new AppError("WEBHOOK_DELIVERY_NOT_FOUND", "delivery not found");
    const delivery = await insertDelivery(tenantId, webhookId, original.event.id);
    await recordAuditEvent(tenantId, {
      ...context,
      type: "webhook.delivery_replayed",
      details: { webhookId, deliveryId, replayId: delivery.id },
    });
    return { delivery, event: original.event, attempts: [] };
  });
}

/** A `webhook.test` event to this endpoint only (whatever it subscribes to, enabled or not). Audited. */
export async function sendTestEvent(
  tenantId: string,
  webhookId: string,
  context: AuditContext,
): Promise<DeliveryInfo> {
  return transaction(async () => {
    const webhook = await getWebhook(tenantId, webhookId);
    const delivery = await insertEventForWebhook(tenantId, webhookId, TEST_EVENT, {
      webhook_id: webhook.id,
      message: "This is a test event from Sesame.",
    });
    await recordAuditEvent(tenantId, {
      ...context,
      type: "webhook.test_sent",
      details: { webhookId, deliveryId: delivery.id },
    });
    const found = await findDelivery(tenantId, webhookId, delivery.id);
    return { ...found!, attempts: [] };
  });
}
