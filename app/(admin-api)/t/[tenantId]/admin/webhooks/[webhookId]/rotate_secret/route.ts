import { rotateWebhookSecret } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/webhooks/{webhookId}/rotate_secret: a new secret; both sign for 24 h
export const POST = route(rotateWebhookSecret, async ({ tenant, params, audit }) =>
  json(await webhooks.rotateWebhookSecret(tenant.id, params.webhookId, audit)),
);
