import { afterEach, describe, expect, it } from "vitest";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/route";
import * as item from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/route";
import * as deliveriesRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/route";
import * as replayRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/[deliveryId]/replay/route";
import * as testRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/test/route";
import * as rotateRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/rotate_secret/route";
import { listAuditEvents } from "@/lib/audit";
import { GROUP_DEFAULTS } from "@/lib/rate-limit";
import { configureWebhooks } from "@/lib/webhooks";
import { adminCall } from "@/tests/helpers/admin-api";
import { createTestTenant } from "@/tests/helpers/tenants";

const PUBLIC = "https://93.184.215.14/hooks";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const MISSING = "00000000-0000-4000-8000-000000000000";

afterEach(() => configureWebhooks(undefined));

const base = (tenantId: string) => `/t/${tenantId}/admin/webhooks`;

async function create(tenantId: string, key: string, body: unknown = { callback: PUBLIC, events: ["user"] }) {
  return adminCall(collection.POST, base(tenantId), key, { method: "POST", params: { tenantId }, body });
}

async function created(tenantId: string, key: string, body?: unknown) {
  const res = await create(tenantId, key, body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string; events: { id: string; event: string }[] };
}

const get = (tenantId: string, webhookId: string, key: string | undefined) =>
  adminCall(item.GET, `${base(tenantId)}/${webhookId}`, key, { params: { tenantId, webhookId } });

async function auditTypes(tenantId: string): Promise<string[]> {
  const page = await listAuditEvents(tenantId, { limit: 100 });
  return page.items.map((event) => event.type);
}

describe("admin webhooks CRUD", () => {
  it("creates, lists, reads, replaces and deletes a webhook in Hanko's shapes, audited with the key", async () => {
    const { tenant, keys } = await createTestTenant();
    const res = await create(tenant.id, keys.admin, {
      callback: PUBLIC,
      events: ["user", "session.create.flow", "user.login", "user"],
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      callback: PUBLIC,
      enabled: true,
      failures: 0,
      expires_at: expect.stringMatching(ISO),
      events: [
        { id: expect.stringMatching(UUID), event: "user" },
        { id: expect.stringMatching(UUID), event: "session.create.flow" },
        { id: expect.stringMatching(UUID), event: "user.login" },
      ],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(body.secret.slice(6), "base64").length).toBe(32);

    const list = await adminCall(collection.GET, base(tenant.id), keys.admin, {
      params: { tenantId: tenant.id },
    });
    expect(list.status).toBe(200);
    const { secret: _secret, ...webhook } = body;
    expect(await list.json()).toEqual({ database: [webhook], config: [] });

    const one = await get(tenant.id, body.id, keys.admin);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual(webhook);

    const put = await adminCall(item.PUT, `${base(tenant.id)}/${body.id}`, keys.admin, {
      method: "PUT",
      params: { tenantId: tenant.id, webhookId: body.id },
      body: { callback: "https://93.184.215.14/other", events: ["user", "session"], enabled: false },
    });
    expect(put.status).toBe(200);
    const replaced = await put.json();
    expect(replaced).toMatchObject({ callback: "https://93.184.215.14/other", enabled: false });
    // A kept subscription keeps its id.
    expect(replaced.events).toEqual([
      { id: body.events[0].id, event: "user" },
      { id: expect.stringMatching(UUID), event: "session" },
    ]);
    expect(replaced).not.toHaveProperty("secret");

    const del = await adminCall(item.DELETE, `${base(tenant.id)}/${body.id}`, keys.admin, {
      method: "DELETE",
      params: { tenantId: tenant.id, webhookId: body.id },
    });
    expect(del.status).toBe(204);
    expect((await get(tenant.id, body.id, keys.admin)).status).toBe(404);

    const page = await listAuditEvents(tenant.id, { limit: 100 });
    const mine = page.items.filter((event) => event.type.startsWith("webhook."));
    expect(mine.map((event) => event.type).sort()).toEqual([
      "webhook.created",
      "webhook.deleted",
      "webhook.updated",
    ]);
    for (const event of mine) expect(event.actor).toMatch(/^api_key:/);
  });

  it("answers 401 without a key, with a passkey or authenticator key, or another tenant's admin key", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    const { id } = await created(tenant.id, keys.admin);
    for (const key of [undefined, keys.passkey, keys.authenticator, other.keys.admin]) {
      const res = await get(tenant.id, id, key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
      const post = await create(tenant.id, key as string);
      expect(post.status).toBe(401);
    }
    expect(
      (
        await adminCall(collection.GET, base(tenant.id), keys.admin, {
          params: { tenantId: tenant.id },
        }).then((r) => r.json())
      ).database,
    ).toHaveLength(1);
  });

  it("answers 404 for another tenant's webhook on every route, and changes nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    const { id } = await created(other.tenant.id, other.keys.admin);
    const params = { tenantId: tenant.id, webhookId: id };
    const path = `${base(tenant.id)}/${id}`;
    const responses = [
      await get(tenant.id, id, keys.admin),
      await adminCall(item.PUT, path, keys.admin, {
        method: "PUT",
        params,
        body: { callback: PUBLIC, events: ["user"], enabled: false },
      }),
      await adminCall(item.DELETE, path, keys.admin, { method: "DELETE", params }),
      await adminCall(deliveriesRoute.GET, `${path}/deliveries`, keys.admin, { params }),
      await adminCall(testRoute.POST, `${path}/test`, keys.admin, { method: "POST", params }),
      await adminCall(rotateRoute.POST, `${path}/rotate_secret`, keys.admin, { method: "POST", params }),
      await adminCall(replayRoute.POST, `${path}/deliveries/${MISSING}/replay`, keys.admin, {
        method: "POST",
        params: { ...params, deliveryId: MISSING },
      }),
      await get(tenant.id, MISSING, keys.admin),
    ];
    for (const res of responses) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 404 });
    }
    const still = await get(other.tenant.id, id, other.keys.admin);
    expect(await still.json()).toMatchObject({ enabled: true, callback: PUBLIC });
  });

  it("answers 400 {code, message} on bad input and creates nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const bad: unknown[] = [
      { callback: PUBLIC, events: ["user.unknown"] },
      { callback: PUBLIC, events: [] },
      { callback: PUBLIC },
      { events: ["user"] },
      { callback: "http://93.184.215.14/hooks", events: ["user"] },
      { callback: "ftp://93.184.215.14/hooks", events: ["user"] },
      { callback: "not a url", events: ["user"] },
      { callback: "https://10.0.0.7/hooks", events: ["user"] },
      { callback: "https://192.168.1.1/hooks", events: ["user"] },
      { callback: "https://127.0.0.1/hooks", events: ["user"] },
      { callback: "https://localhost/hooks", events: ["user"] },
      { callback: "https://[::1]/hooks", events: ["user"] },
      { callback: "https://169.254.169.254/latest/meta-data", events: ["user"] },
      { callback: "https://[fd00:ec2::254]/", events: ["user"] },
      { callback: "https://100.64.0.1/", events: ["user"] },
      { callback: "https://[fc00::1]/", events: ["user"] },
      { callback: "https://224.0.0.1/", events: ["user"] },
      { callback: "https://0.0.0.0/", events: ["user"] },
      { callback: "https://[::ffff:127.0.0.1]/", events: ["user"] },
      { callback: "http://localhost:8080/hooks", events: ["user"] },
    ];
    for (const body of bad) {
      const res = await create(tenant.id, keys.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error).toEqual({ code: 400, message: expect.any(String) });
    }
    const list = await adminCall(collection.GET, base(tenant.id), keys.admin, {
      params: { tenantId: tenant.id },
    });
    expect((await list.json()).database).toEqual([]);
    expect(await auditTypes(tenant.id)).not.toContain("webhook.created");
  });

  it("allows http://localhost and loopback addresses only with SESAME_WEBHOOKS_ALLOW_PRIVATE; never metadata", async () => {
    const { tenant, keys } = await createTestTenant();
    configureWebhooks({ allowPrivate: true });
    expect(
      (await create(tenant.id, keys.admin, { callback: "http://localhost:9/x", events: ["user"] })).status,
    ).toBe(201);
    expect(
      (await create(tenant.id, keys.admin, { callback: "https://10.1.2.3/x", events: ["user"] })).status,
    ).toBe(201);
    expect(
      (await create(tenant.id, keys.admin, { callback: "http://10.1.2.3/x", events: ["user"] })).status,
    ).toBe(400);
    expect(
      (await create(tenant.id, keys.admin, { callback: "https://169.254.169.254/x", events: ["user"] }))
        .status,
    ).toBe(400);
    expect(
      (await create(tenant.id, keys.admin, { callback: "https://[fd00:ec2::254]/x", events: ["user"] }))
        .status,
    ).toBe(400);
  });

  it("PUT: bad input is 400 and the webhook is unchanged; enabled is required", async () => {
    const { tenant, keys } = await createTestTenant();
    const { id } = await created(tenant.id, keys.admin);
    const params = { tenantId: tenant.id, webhookId: id };
    for (const body of [
      { callback: PUBLIC, events: ["user"] },
      { callback: PUBLIC, events: ["nope"], enabled: true },
      { callback: "https://10.0.0.1/", events: ["user"], enabled: true },
      { callback: PUBLIC, events: ["user"], enabled: "yes" },
    ]) {
      const res = await adminCall(item.PUT, `${base(tenant.id)}/${id}`, keys.admin, {
        method: "PUT",
        params,
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await (await get(tenant.id, id, keys.admin)).json()).toMatchObject({
      callback: PUBLIC,
      enabled: true,
      events: [{ event: "user" }],
    });
    expect((await get(tenant.id, "not-a-uuid", keys.admin)).status).toBe(400);
  });

  it("rotate_secret returns a new secret once, audited", async () => {
    const { tenant, keys } = await createTestTenant();
    const { id, secret } = await created(tenant.id, keys.admin);
    const res = await adminCall(rotateRoute.POST, `${base(tenant.id)}/${id}/rotate_secret`, keys.admin, {
      method: "POST",
      params: { tenantId: tenant.id, webhookId: id },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(body.secret).not.toBe(secret);
    expect(await auditTypes(tenant.id)).toContain("webhook.secret_rotated");
  });
});

describe("abuse limits", () => {
  it("a tenant has at most 20 webhooks: the 21st is 409 {code, message} and creates nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await created(tenant.id, keys.admin)).id);
    const res = await create(tenant.id, keys.admin);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 409,
      message: "Conflict: a tenant has at most 20 webhooks; delete one first",
    });
    const list = () =>
      adminCall(collection.GET, base(tenant.id), keys.admin, { params: { tenantId: tenant.id } }).then(
        async (r) => ((await r.json()) as { database: unknown[] }).database,
      );
    expect(await list()).toHaveLength(20);
    // Another tenant is not affected; deleting one makes room again.
    const other = await createTestTenant();
    expect((await create(other.tenant.id, other.keys.admin)).status).toBe(201);
    const del = await adminCall(item.DELETE, `${base(tenant.id)}/${ids[0]!}`, keys.admin, {
      method: "DELETE",
      params: { tenantId: tenant.id, webhookId: ids[0]! },
    });
    expect(del.status).toBe(204);
    expect((await create(tenant.id, keys.admin)).status).toBe(201);
    expect(await list()).toHaveLength(20);
  });

  it("two creations racing for the last slot: one 201, one 409", async () => {
    const { tenant, keys } = await createTestTenant();
    for (let i = 0; i < 19; i++) await created(tenant.id, keys.admin);
    const statuses = (await Promise.all([create(tenant.id, keys.admin), create(tenant.id, keys.admin)])).map(
      (res) => res.status,
    );
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it("test and replay share the `webhook` rate limit (30 a minute by default): 429 with Retry-After", async () => {
    expect(GROUP_DEFAULTS.webhook).toEqual({ points: 30, durationSeconds: 60 });
    const { tenant, keys } = await createTestTenant({
      platform: { rateLimits: { webhook: { points: 3, durationSeconds: 60 } } },
    });
    const { id } = await created(tenant.id, keys.admin);
    const params = { tenantId: tenant.id, webhookId: id };
    const test = () =>
      adminCall(testRoute.POST, `${base(tenant.id)}/${id}/test`, keys.admin, { method: "POST", params });
    const first = await test();
    expect(first.status).toBe(202);
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    const deliveryId = ((await first.json()) as { id: string }).id;
    const replay = () =>
      adminCall(replayRoute.POST, `${base(tenant.id)}/${id}/deliveries/${deliveryId}/replay`, keys.admin, {
        method: "POST",
        params: { ...params, deliveryId },
      });
    expect((await replay()).status).toBe(202);
    expect((await test()).status).toBe(202);
    for (const res of [await test(), await replay()]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await res.json()).toEqual({ code: 429, message: "Too Many Requests" });
    }
    // Refused requests queued nothing: three deliveries (two tests, one replay).
    const list = await adminCall(deliveriesRoute.GET, `${base(tenant.id)}/${id}/deliveries`, keys.admin, {
      params,
    });
    expect(list.headers.get("x-total-count")).toBe("3");
    // Other routes are not limited by it.
    expect((await get(tenant.id, id, keys.admin)).status).toBe(200);
  });
});

describe("audit details", () => {
  it("record only the callback's origin, never its path, query or userinfo", async () => {
    const { tenant, keys } = await createTestTenant();
    const callback = "https://hook:s3cr3t-pass@93.184.215.14:8443/hooks/s3cr3t-path?token=s3cr3t-query";
    const { id } = await created(tenant.id, keys.admin, { callback, events: ["user"] });
    const put = await adminCall(item.PUT, `${base(tenant.id)}/${id}`, keys.admin, {
      method: "PUT",
      params: { tenantId: tenant.id, webhookId: id },
      body: { callback: "https://93.184.215.14/other/s3cr3t-2", events: ["user"], enabled: true },
    });
    expect(put.status).toBe(200);
    const page = await listAuditEvents(tenant.id, { limit: 100 });
    const byType = new Map(page.items.map((event) => [event.type, event]));
    expect(byType.get("webhook.created")!.details).toMatchObject({
      webhookId: id,
      callbackOrigin: "https://93.184.215.14:8443",
      events: ["user"],
    });
    expect(byType.get("webhook.updated")!.details).toMatchObject({
      callbackOrigin: "https://93.184.215.14",
      enabled: true,
    });
    expect(JSON.stringify(page.items)).not.toContain("s3cr3t");
  });
});
