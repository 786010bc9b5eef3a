import { describe, expect, it } from "vitest";
import { createTestTenant } from "@/tests/helpers/tenants";
import { createWebhook, getDelivery, sendTestEvent } from ".";

const context = { actor: "operator:test" };

describe("getDelivery", () => {
  it("returns one delivery of the endpoint with its event and attempts, else not found", async () => {
    const { tenant } = await createTestTenant();
    const other = await createTestTenant();
    const { webhook } = await createWebhook(
      tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["user"] },
      context,
    );
    const sent = await sendTestEvent(tenant.id, webhook.id, context);
    const found = await getDelivery(tenant.id, webhook.id, sent.delivery.id);
    expect(found.delivery).toMatchObject({ id: sent.delivery.id, status: "pending", webhookId: webhook.id });
    expect(found.event.event).toBe("webhook.test");
    expect(found.attempts).toEqual([]);
    await expect(getDelivery(other.tenant.id, webhook.id, sent.delivery.id)).rejects.toMatchObject({
      code: "WEBHOOK_NOT_FOUND",
    });
    await expect(
      getDelivery(tenant.id, webhook.id, "00000000-0000-4000-8000-000000000000"),
    ).rejects.toMatchObject({ code: "WEBHOOK_DELIVERY_NOT_FOUND" });
  });
});
