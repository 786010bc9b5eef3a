import { describe, expect, it } from "vitest";
import {
  createOAuthClient,
  deleteOAuthClient,
  revokeConnectedApp,
  rotateOAuthClientSecret,
  updateOAuthClient,
} from "@/lib/openid";
import { createWebhook, listDeliveries } from "@/lib/webhooks";
import { authorize, setUp } from "../helpers/openid";
import { createPublicTenant, TEST_CONTEXT } from "../helpers/public-api";

/** The events a webhook got, oldest first: [event, data]. */
async function eventsOf(tenantId: string, webhookId: string) {
  const { deliveries } = await listDeliveries(tenantId, webhookId, { page: 1, perPage: 100 });
  return deliveries.reverse().map(({ event }) => [event.event, event.data] as const);
}

describe("OpenID client and consent webhooks", () => {
  it("fires oauth_client.create|update|secret_rotate|delete, never with the secret", async () => {
    const tenant = await createPublicTenant();
    const { webhook } = await createWebhook(
      tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["oauth_client"] },
      TEST_CONTEXT,
    );
    const { client, secret } = await createOAuthClient(
      tenant.id,
      { client_name: "Grafana", redirect_uris: ["https://grafana.example.com/cb"] },
      TEST_CONTEXT,
    );
    await updateOAuthClient(tenant.id, client.clientId, { first_party: true }, TEST_CONTEXT);
    const rotated = await rotateOAuthClientSecret(tenant.id, client.clientId, TEST_CONTEXT);
    await deleteOAuthClient(tenant.id, client.clientId, TEST_CONTEXT);
    const events = await eventsOf(tenant.id, webhook.id);
    const about = { client_id: client.clientId, client_name: "Grafana" };
    expect(events).toEqual([
      ["oauth_client.create", { ...about, first_party: false }],
      ["oauth_client.update", { ...about, first_party: true }],
      ["oauth_client.secret_rotate", { ...about, first_party: true }],
      ["oauth_client.delete", { ...about, first_party: true }],
    ]);
    expect(JSON.stringify(events)).not.toContain(secret!);
    expect(JSON.stringify(events)).not.toContain(rotated.secret);
  });

  it("fires oauth_consent.grant and oauth_consent.revoke; a failed change fires nothing", async () => {
    const setup = await setUp({ firstParty: false });
    const { webhook } = await createWebhook(
      setup.tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["oauth_consent"] },
      TEST_CONTEXT,
    );
    const started = await authorize(setup, { scope: "openid email" });
    const decided = await setup.browser.request(started.landed, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow" }),
    });
    expect(decided.status).toBe(303);
    await revokeConnectedApp(setup.tenant.id, setup.user.id, setup.rp.clientId, TEST_CONTEXT);
    await expect(
      revokeConnectedApp(setup.tenant.id, setup.user.id, setup.rp.clientId, TEST_CONTEXT),
    ).rejects.toMatchObject({ code: "OAUTH_CONSENT_NOT_FOUND" });
    expect(await eventsOf(setup.tenant.id, webhook.id)).toEqual([
      [
        "oauth_consent.grant",
        { user_id: setup.user.id, client_id: setup.rp.clientId, scopes: ["openid", "email"] },
      ],
      ["oauth_consent.revoke", { user_id: setup.user.id, client_id: setup.rp.clientId }],
    ]);
  });
});
