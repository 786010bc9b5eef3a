import { deliveryWire, replayWebhookDelivery } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { replayDelivery } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay: send the event again
export const POST = route(replayWebhookDelivery, async ({ tenant, params, audit }) =>
  json(deliveryWire(await replayDelivery(tenant.id, params.webhookId, params.deliveryId, audit)), 202),
);
