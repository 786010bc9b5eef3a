import { createWebhook, listWebhooks, webhookWire } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/webhooks: the tenant's webhooks (Hanko's `{database, config}`)
export const GET = route(listWebhooks, async ({ tenant }) =>
  json({ database: (await webhooks.listWebhooks(tenant.id)).map(webhookWire), config: [] }),
);

// POST /t/{tenantId}/admin/webhooks: a new webhook and its secret (shown once)
export const POST = route(createWebhook, async ({ tenant, body, audit }) => {
  const { webhook, secret } = await webhooks.createWebhook(tenant.id, body, audit);
  return json({ ...webhookWire(webhook), secret }, 201);
});
