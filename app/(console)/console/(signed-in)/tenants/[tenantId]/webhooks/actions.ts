"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction, type ActionResult } from "@/lib/console/guard";
import { ValidationFailed } from "@/lib/errors";
import {
  CreateWebhookInput,
  createWebhook,
  deleteWebhook,
  getWebhook,
  replayDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from "@/lib/webhooks";

const Id = z.uuid("must be a UUID");

/** The domain's schema, with plainer words for an empty field than zod's defaults. */
const parseWebhookInput = (input: unknown) =>
  CreateWebhookInput.parse(input, {
    error: (issue) =>
      issue.code === "too_small"
        ? issue.origin === "array"
          ? "pick at least one event"
          : "enter the URL Sesame should POST events to"
        : undefined,
  });
const base = (tenantId: string) => `/console/tenants/${tenantId}/webhooks`;

/**
 * The domain's own input errors (`body.callback: …`, the SSRF guard's among them) as field errors: a
 * ZodError with those paths, which consoleAction answers per field, so they appear next to the field.
 */
async function fieldErrorsOf<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const issues = error.details.map((detail) => {
      const match = /^body\.([^:]+): (.*)$/s.exec(detail);
      return {
        code: "custom" as const,
        path: match ? match[1]!.split(".") : [],
        message: match ? match[2]! : detail,
        input: undefined,
      };
    });
    throw new z.ZodError(issues);
  }
}

/** A new webhook; its secret is answered here once (shown with SecretOnce) and never again. */
export async function createWebhookAction(
  tenantId: string,
  input: { callback: string; events: string[] },
): Promise<ActionResult<{ id: string; secret: string }>> {
  return consoleAction("write", tenantId, async (session) => {
    const body = parseWebhookInput(input);
    const { webhook, secret } = await fieldErrorsOf(() => createWebhook(tenantId, body, session.context));
    revalidatePath(base(tenantId));
    return { id: webhook.id, secret };
  });
}

/** Replaces the callback and events; the enabled state stays as it is. */
export async function updateWebhookAction(
  tenantId: string,
  webhookId: string,
  input: { callback: string; events: string[] },
): Promise<ActionResult> {
  return consoleAction("write", tenantId, async (session) => {
    const id = Id.parse(webhookId);
    const body = parseWebhookInput(input);
    const current = await getWebhook(tenantId, id);
    await fieldErrorsOf(() =>
      updateWebhook(tenantId, id, { ...body, enabled: current.enabled }, session.context),
    );
    revalidatePath(base(tenantId), "layout");
    return undefined;
  });
}

/** Enables or disables the webhook (re-enabling starts a fresh failure streak). */
export async function setWebhookEnabledAction(
  tenantId: string,
  webhookId: string,
  enabled: boolean,
): Promise<ActionResult> {
  return consoleAction("write", tenantId, async (session) => {
    const id = Id.parse(webhookId);
    const current = await getWebhook(tenantId, id);
    await updateWebhook(
      tenantId,
      id,
      {
        callback: current.callback,
        events: current.events.map((subscription) => subscription.event),
        enabled: z.boolean().parse(enabled),
      },
      session.context,
    );
    revalidatePath(base(tenantId), "layout");
    return undefined;
  });
}

/** A new signing secret, answered once; the old one still signs for 24 hours. */
export async function rotateWebhookSecretAction(
  tenantId: string,
  webhookId: string,
): Promise<ActionResult<{ secret: string }>> {
  return consoleAction("write", tenantId, async (session) =>
    rotateWebhookSecret(tenantId, Id.parse(webhookId), session.context),
  );
}

export async function deleteWebhookAction(tenantId: string, webhookId: string): Promise<ActionResult> {
  return consoleAction("write", tenantId, async (session) => {
    await deleteWebhook(tenantId, Id.parse(webhookId), session.context);
    revalidatePath(base(tenantId), "layout");
    return undefined;
  });
}

/** A `webhook.test` event to this webhook only. */
export async function sendTestEventAction(
  tenantId: string,
  webhookId: string,
): Promise<ActionResult<{ deliveryId: string }>> {
  return consoleAction("write", tenantId, async (session) => {
    const delivery = await sendTestEvent(tenantId, Id.parse(webhookId), session.context);
    revalidatePath(base(tenantId), "layout");
    return { deliveryId: delivery.delivery.id };
  });
}

/** The delivery's event again, as a new delivery due now. */
export async function replayDeliveryAction(
  tenantId: string,
  webhookId: string,
  deliveryId: string,
): Promise<ActionResult<{ deliveryId: string }>> {
  return consoleAction("write", tenantId, async (session) => {
    const replay = await replayDelivery(tenantId, Id.parse(webhookId), Id.parse(deliveryId), session.context);
    revalidatePath(base(tenantId), "layout");
    return { deliveryId: replay.delivery.id };
  });
}
