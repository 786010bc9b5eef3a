import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as adminSessions from "@/app/(admin-api)/t/[tenantId]/admin/sessions/route";
import * as adminUsers from "@/app/(admin-api)/t/[tenantId]/admin/users/route";
import * as adminUser from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/route";
import * as adminPassword from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/password/route";
import * as adminUserSession from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/sessions/[sessionId]/route";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/route";
import * as deliveriesRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/route";
import { executor } from "@/lib/db";
import { sessions, webhookDeliveries } from "@/lib/db/schema";
import { findEmailByAddress } from "@/lib/emails";
import { addEmail, removeEmail, setPrimary } from "@/lib/accounts";
import { setPasswordOfSelf } from "@/lib/accounts";
import { endSession, issueSession, sweepExpiredSessions } from "@/lib/sessions";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { type ProvisionedTenant } from "@/lib/accounts";
import { findUser } from "@/lib/users";
import { deleteAccount } from "@/lib/accounts";
import { signUpWithEmail } from "@/lib/accounts";
import { deleteUsername, setUsername } from "@/lib/accounts";
import { adminCall } from "@/tests/helpers/admin-api";
import { TEST_CONTEXT } from "@/tests/helpers/public-api";
import { createTestTenant } from "@/tests/helpers/tenants";

/** The tenant's `user` + `session` subscriber's deliveries, oldest first: [event, data]. */
async function eventsOf(tenant: Tenant, keys: ProvisionedTenant["keys"], webhookId: string) {
  const res = await adminCall(
    deliveriesRoute.GET,
    `/t/${tenant.id}/admin/webhooks/${webhookId}/deliveries?per_page=100`,
    keys.admin,
    { params: { tenantId: tenant.id, webhookId } },
  );
  const items = (await res.json()) as { event: string; data: Record<string, unknown> }[];
  return items.reverse().map((item) => [item.event, item.data] as const);
}

async function subscribedTenant() {
  const provisioned = await createTestTenant({ signingAlgorithm: "ES256" });
  const res = await adminCall(
    collection.POST,
    `/t/${provisioned.tenant.id}/admin/webhooks`,
    provisioned.keys.admin,
    {
      method: "POST",
      params: { tenantId: provisioned.tenant.id },
      body: { callback: "https://93.184.215.14/hooks", events: ["user", "session"] },
    },
  );
  const { id } = (await res.json()) as { id: string };
  return { ...provisioned, webhookId: id };
}

describe("user and session changes fire webhooks", () => {
  it("sign-up, login, session limit, logout, revoke, emails, username, password and deletion", async () => {
    const { tenant: created, keys, webhookId } = await subscribedTenant();
    const tenant = await updateTenant(created.id, {
      platform: {
        emails: { requireVerification: false, maxPerUser: 5 },
        session: { limit: 1 },
        username: { enabled: true, required: false, minLength: 3, maxLength: 32 },
        password: { enabled: true, minLength: 8 },
        account: { allowSignup: true, allowDeletion: true },
      },
    } as never);

    const signedUp = await signUpWithEmail(tenant, { email: "wh@example.com" }, TEST_CONTEXT);
    const userId = signedUp.body.user_id;
    const first = signedUp.session!.session;
    let events = await eventsOf(tenant, keys, webhookId);
    expect(events.map(([event]) => event)).toEqual(["user.create", "session.create.flow"]);
    expect(events[0]![1]).toMatchObject({
      id: userId,
      emails: [{ address: "wh@example.com", is_primary: true, is_verified: false }],
    });
    expect(events[1]![1]).toEqual({
      id: first.id,
      user_id: userId,
      user_agent: "vitest",
      ip_address: "127.0.0.1",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      expires_at: expect.any(String),
      last_used: expect.any(String),
    });

    // The session limit (1) evicts the first session.
    const user = (await findUser(tenant.id, userId))!;
    const second = await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    await endSession(tenant, second.session, TEST_CONTEXT);
    const third = await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    await endSession(tenant, third.session, TEST_CONTEXT, "revoked");

    const added = await addEmail(tenant, userId, {
      address: "second@example.com",
      verified: true,
      context: TEST_CONTEXT,
    });
    await setPrimary(tenant, userId, added.id, TEST_CONTEXT);
    const old = (await findEmailByAddress(tenant.id, "wh@example.com"))!;
    await removeEmail(tenant, userId, old.id, TEST_CONTEXT);
    const named = await setUsername(tenant, user, "webhooker", TEST_CONTEXT);
    const renamed = await setUsername(tenant, named, "webhooker2", TEST_CONTEXT);
    await deleteUsername(tenant, renamed, TEST_CONTEXT);
    await setPasswordOfSelf(tenant, user, { password: "correct horse battery" }, TEST_CONTEXT);
    await deleteAccount(tenant, user, TEST_CONTEXT);

    events = await eventsOf(tenant, keys, webhookId);
    expect(events.map(([event]) => event)).toEqual([
      "user.create",
      "session.create.flow",
      "session.create.flow",
      "session.delete.passive.limit",
      "session.delete.explicit.logout",
      "session.create.flow",
      "session.delete.explicit.revoke",
      "user.update.email.create",
      "user.update.email.primary",
      "user.update.email.delete",
      "user.update.username.create",
      "user.update.username.update",
      "user.update.username.delete",
      "user.update.password.update",
      "user.delete",
    ]);
    const data = (index: number) => events[index]![1];
    expect(data(3)).toMatchObject({ id: first.id, user_id: userId });
    expect(data(4)).toMatchObject({ id: second.session.id });
    expect(data(6)).toMatchObject({ id: third.session.id });
    expect(data(8)).toMatchObject({
      emails: expect.arrayContaining([
        expect.objectContaining({ address: "second@example.com", is_primary: true }),
      ]),
    });
    expect(data(10)).toMatchObject({ username: { username: "webhooker" } });
    expect(data(11)).toMatchObject({ username: { username: "webhooker2" } });
    expect(data(12)).not.toHaveProperty("username");
    expect(data(14)).toMatchObject({ id: userId, emails: [{ address: "second@example.com" }] });
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenant.id));
  });

  it("the admin API's changes fire theirs: user create, update, password, impersonation, revoke, delete", async () => {
    const { tenant: created, keys, webhookId } = await subscribedTenant();
    const tenant = await updateTenant(created.id, {
      platform: { password: { enabled: true, minLength: 8 } },
    } as never);
    const admin = (
      handler: Parameters<typeof adminCall>[0],
      path: string,
      method: string,
      params = {},
      body?: unknown,
    ) =>
      adminCall(handler, `/t/${tenant.id}/admin${path}`, keys.admin, {
        method,
        params: { tenantId: tenant.id, ...params },
        ...(body === undefined ? {} : { body }),
      });

    const made = await admin(
      adminUsers.POST,
      "/users",
      "POST",
      {},
      {
        emails: [{ address: "admin-made@example.com", is_primary: true, is_verified: true }],
      },
    );
    expect(made.status).toBe(200);
    const userId = ((await made.json()) as { id: string }).id;
    const ids = { userId };
    expect((await admin(adminUser.PATCH, `/users/${userId}`, "PATCH", ids, { name: "Ada" })).status).toBe(
      200,
    );
    expect(
      (
        await admin(adminPassword.POST, `/users/${userId}/password`, "POST", ids, {
          password: "correct horse",
        })
      ).status,
    ).toBe(200);
    const minted = await admin(adminSessions.POST, "/sessions", "POST", {}, { user_id: userId });
    expect(minted.status).toBe(200);
    const sessionId = (await eventsOf(tenant, keys, webhookId)).find(
      ([event]) => event === "session.create.admin",
    )?.[1].id as string;
    expect(sessionId).toBeTruthy();
    const revoked = await admin(adminUserSession.DELETE, `/users/${userId}/sessions/${sessionId}`, "DELETE", {
      ...ids,
      sessionId,
    });
    expect(revoked.status).toBe(204);
    expect((await admin(adminUser.DELETE, `/users/${userId}`, "DELETE", ids)).status).toBe(204);

    const events = await eventsOf(tenant, keys, webhookId);
    expect(events.map(([event]) => event)).toEqual([
      "user.create",
      "user.update",
      "user.update.password.update",
      "session.create.admin",
      "session.delete.admin.revoke",
      "user.delete",
    ]);
    const data = (index: number) => events[index]![1];
    // The admin API's User object, as GET /admin/users/{id} shows it.
    expect(data(0)).toMatchObject({
      id: userId,
      emails: [{ address: "admin-made@example.com", is_primary: true, is_verified: true }],
    });
    expect(data(1)).toMatchObject({ id: userId, name: "Ada" });
    expect(data(2)).toMatchObject({ id: userId, password: { id: userId } });
    expect(data(4)).toMatchObject({ id: sessionId, user_id: userId });
    // The user as it was before the deletion.
    expect(data(5)).toMatchObject({ id: userId, name: "Ada", password: { id: userId } });
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenant.id));
  });

  it("the background sweep of expired sessions fires session.delete.passive.expire and keeps live ones", async () => {
    const { tenant, keys, webhookId } = await subscribedTenant();
    const signedUp = await signUpWithEmail(tenant, { email: "expiring@example.com" }, TEST_CONTEXT);
    const user = (await findUser(tenant.id, signedUp.body.user_id))!;
    const live = await issueSession(tenant, user, ["passkey"], TEST_CONTEXT);
    const expired = (await issueSession(tenant, user, ["passkey"], TEST_CONTEXT)).session;
    const db = await executor();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expired.id));

    await sweepExpiredSessions({ batchSize: 1 });
    const ours = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(ours.map((row) => row.id)).toEqual([live.session.id]);
    const events = await eventsOf(tenant, keys, webhookId);
    expect(events.filter(([event]) => event === "session.delete.passive.expire")).toEqual([
      ["session.delete.passive.expire", expect.objectContaining({ id: expired.id, user_id: user.id })],
    ]);
    await db.delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenant.id));
  });

  it("a change that fails sends nothing", async () => {
    const { tenant, keys, webhookId } = await subscribedTenant();
    await expect(
      setPrimary(
        tenant,
        "00000000-0000-4000-8000-000000000000",
        "00000000-0000-4000-8000-000000000000",
        TEST_CONTEXT,
      ),
    ).rejects.toThrow();
    expect(await eventsOf(tenant, keys, webhookId)).toEqual([]);
  });
});
