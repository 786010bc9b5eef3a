import { AppError } from "@/lib/errors";
import { findDelivery, selectAttempts } from "./delivery-store";
import { getWebhook, type DeliveryInfo } from "./webhooks";

/** One delivery of the endpoint, with its event and attempts (the console's attempt detail); else 404. */
export async function getDelivery(
  tenantId: string,
  webhookId: string,
  deliveryId: string,
): Promise<DeliveryInfo> {
  await getWebhook(tenantId, webhookId);
  const found = await findDelivery(tenantId, webhookId, deliveryId);
  if (!found) throw new AppError("WEBHOOK_DELIVERY_NOT_FOUND", "delivery not found");
  return { ...found, attempts: await selectAttempts([found.delivery.id]) };
}
