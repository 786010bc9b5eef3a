import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { executor } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { issueSession } from "@/lib/sessions";
import { createProvider, deleteProvider, updateProvider } from "@/lib/thirdparty";
import type { Tenant } from "@/lib/tenants";
import { createWebhook, deleteWebhook, updateWebhook } from "@/lib/webhooks";
import { loginInit } from "../helpers/login";
import { createPublicTenant, createUserWithEmail, TEST_CONTEXT } from "../helpers/public-api";

/*
 * On the embedded database the login reads the tenant's third-party providers and webhook subscriptions
 * from memory after the first time (lib/db/embedded-cache.ts). Every change must be seen by the next
 * request; on Postgres nothing is kept, and the same assertions hold.
 */

/** The events written to the tenant's outbox (only when an enabled endpoint subscribes), sorted. */
async function sessionEvents(tenant: Tenant): Promise<string[]> {
  const db = await executor();
  const rows = await db
    .select({ event: webhookEvents.event })
    .from(webhookEvents)
    .where(eq(webhookEvents.tenantId, tenant.id));
  return rows.map((row) => row.event).sort();
}

describe("what the login keeps in memory on the embedded database", () => {
  it("offers a provider created, changed or deleted after a login read the list", async () => {
    const tenant = await createPublicTenant();
    expect((await loginInit(tenant)).actions.thirdparty_oauth).toBeUndefined();
    await createProvider(tenant.id, { kind: "github", clientId: "id", clientSecret: "secret" }, TEST_CONTEXT);
    const offered = (await loginInit(tenant)).actions.thirdparty_oauth;
    expect(JSON.stringify(offered?.inputs)).toContain("github");
    await updateProvider(tenant.id, "github", { enabled: false }, TEST_CONTEXT);
    expect((await loginInit(tenant)).actions.thirdparty_oauth).toBeUndefined();
    await updateProvider(tenant.id, "github", { enabled: true }, TEST_CONTEXT);
    expect((await loginInit(tenant)).actions.thirdparty_oauth).toBeDefined();
    await deleteProvider(tenant.id, "github", TEST_CONTEXT);
    expect((await loginInit(tenant)).actions.thirdparty_oauth).toBeUndefined();
  });

  it("tells an endpoint subscribed, disabled or deleted after a sign-in found none", async () => {
    const tenant = await createPublicTenant({ platform: { session: { limit: 1 } } });
    const user = await createUserWithEmail(tenant);
    await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    expect(await sessionEvents(tenant)).toEqual([]);

    const { webhook } = await createWebhook(
      tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["session"] },
      TEST_CONTEXT,
    );
    await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    // The new session, and the one the limit of 1 ended.
    expect(await sessionEvents(tenant)).toEqual(["session.create.flow", "session.delete.passive.limit"]);

    await updateWebhook(
      tenant.id,
      webhook.id,
      { callback: "https://93.184.215.14/hooks", events: ["session"], enabled: false },
      TEST_CONTEXT,
    );
    await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    expect(await sessionEvents(tenant)).toHaveLength(2);

    await updateWebhook(
      tenant.id,
      webhook.id,
      { callback: "https://93.184.215.14/hooks", events: ["session.create"], enabled: true },
      TEST_CONTEXT,
    );
    await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    expect(await sessionEvents(tenant)).toEqual([
      "session.create.flow",
      "session.create.flow",
      "session.delete.passive.limit",
    ]);

    await deleteWebhook(tenant.id, webhook.id, TEST_CONTEXT);
    await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    expect(await sessionEvents(tenant)).toHaveLength(3);
  });
});
