import { randomBytes } from "node:crypto";
import { seal, unseal } from "@/lib/crypto";
import type { WebhookRow } from "@/lib/db/schema";

const PURPOSE = "webhook-secret";
const context = (tenantId: string, webhookId: string) => `${tenantId}/${webhookId}`;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealWebhookSecret(tenantId: string, webhookId: string, secret: string): string {
  return seal(secret, PURPOSE, context(tenantId, webhookId));
}

/** The secrets deliveries are signed with now: the current one, and the previous one for 24 h after a rotation. */
export function signingSecrets(webhook: WebhookRow, now = new Date()): string[] {
  const secrets = [unseal(webhook.secretEncrypted, PURPOSE, context(webhook.tenantId, webhook.id))];
  if (webhook.previousSecretEncrypted && webhook.previousSecretUntil && webhook.previousSecretUntil > now) {
    secrets.push(unseal(webhook.previousSecretEncrypted, PURPOSE, context(webhook.tenantId, webhook.id)));
  }
  return secrets;
}
