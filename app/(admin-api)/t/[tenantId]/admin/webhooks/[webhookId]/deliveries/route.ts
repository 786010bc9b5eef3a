import { deliveryWire, listWebhookDeliveries, requestedPage } from "@/lib/contracts/admin";
import { pageJson, route } from "@/lib/http";
import { listDeliveries } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/webhooks/{webhookId}/deliveries: newest first, with their attempts
export const GET = route(listWebhookDeliveries, async ({ req, tenant, params, query }) => {
  const page = requestedPage(query);
  const { deliveries, total } = await listDeliveries(tenant.id, params.webhookId, {
    status: query.status,
    ...page,
  });
  return pageJson(req.url, deliveries.map(deliveryWire), { ...page, total });
});
