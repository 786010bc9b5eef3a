import { deleteWebhook, getWebhook, updateWebhook, webhookWire } from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import * as webhooks from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/webhooks/{webhookId}
export const GET = route(getWebhook, async ({ tenant, params }) =>
  json(webhookWire(await webhooks.getWebhook(tenant.id, params.webhookId))),
);

// PUT /t/{tenantId}/admin/webhooks/{webhookId}: replace callback, events and enabled
export const PUT = route(updateWebhook, async ({ tenant, params, body, audit }) =>
  json(webhookWire(await webhooks.updateWebhook(tenant.id, params.webhookId, body, audit))),
);

// DELETE /t/{tenantId}/admin/webhooks/{webhookId}
export const DELETE = route(deleteWebhook, async ({ tenant, params, audit }) => {
  await webhooks.deleteWebhook(tenant.id, params.webhookId, audit);
  return noContent();
});
