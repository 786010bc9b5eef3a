import { deliveryWire, testWebhook } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { sendTestEvent } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/webhooks/{webhookId}/test: a webhook.test event to this webhook only
export const POST = route(testWebhook, async ({ tenant, params, audit }) =>
  json(deliveryWire(await sendTestEvent(tenant.id, params.webhookId, audit)), 202),
);
