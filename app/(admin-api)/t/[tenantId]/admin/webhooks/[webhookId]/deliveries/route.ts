import { deliveryWire, listWebhookDeliveries, pageHeaders } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { listDeliveries } from "@/lib/webhooks";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/webhooks/{webhookId}/deliveries: newest first, with their attempts
export const GET = route(listWebhookDeliveries, async ({ req, tenant, params, query }) => {
  const { deliveries, total } = await listDeliveries(tenant.id, params.webhookId, {
    status: query.status,
    page: query.page,
    perPage: query.per_page,
  });
  return json(
    deliveries.map(deliveryWire),
    200,
    pageHeaders(req.url, { total, page: query.page, perPage: query.per_page }),
  );
});
