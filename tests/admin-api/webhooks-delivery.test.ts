import { eq, inArray, sql } from "drizzle-orm";
import { createLocalJWKSet, jwtVerify } from "jose";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/route";
import * as item from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/route";
import * as deliveriesRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/route";
import * as replayRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/deliveries/[deliveryId]/replay/route";
import * as testRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/test/route";
import * as rotateRoute from "@/app/(admin-api)/t/[tenantId]/admin/webhooks/[webhookId]/rotate_secret/route";
import { listAuditEvents } from "@/lib/audit";
import type { WebhookDelivery } from "@/lib/contracts/admin";
import { executor, transaction } from "@/lib/db";
import { webhookAttempts, webhookDeliveries, webhookEvents, webhooks } from "@/lib/db/schema";
import { getJwks } from "@/lib/tenants";
import { type ProvisionedTenant } from "@/lib/accounts";
import {
  configureWebhooks,
  createWebhookWorker,
  emitWebhookEvent,
  onWebhookOutcome,
  processDueDeliveries,
  releaseDeadLeases,
  sweepWebhookHistory,
  webhookQueueStats,
  type DeliveryOutcome,
} from "@/lib/webhooks";
import { adminCall } from "@/tests/helpers/admin-api";
import { createTestTenant } from "@/tests/helpers/tenants";
import { startFakeDns } from "./webhooks-dns";
import { deliveryTestHooks } from "./webhooks-receiver";

/** A delivery as the admin API lists it (lib/contracts/admin/webhooks.ts). */
type WireDelivery = z.output<typeof WebhookDelivery> & {
  attempts: z.output<typeof WebhookDelivery>["attempts"];
};

// Workers claim every due delivery of their database: on Postgres this file gets one of its own.
const receiver = deliveryTestHooks(drain);

/** Runs the worker's claim-and-send until nothing is due. */
async function drain(): Promise<number> {
  let total = 0;
  for (;;) {
    const processed = await processDueDeliveries({ limit: 50 });
    if (processed === 0) return total;
    total += processed;
  }
}

async function tenantWithWebhook(callback: string, events: string[] = ["user"]) {
  const provisioned = await createTestTenant({ signingAlgorithm: "ES256" });
  const res = await adminCall(
    collection.POST,
    `/t/${provisioned.tenant.id}/admin/webhooks`,
    provisioned.keys.admin,
    {
      method: "POST",
      params: { tenantId: provisioned.tenant.id },
      body: { callback, events },
    },
  );
  expect(res.status).toBe(201);
  const webhook = (await res.json()) as { id: string; secret: string };
  return { ...provisioned, webhook };
}

async function addWebhook(provisioned: ProvisionedTenant, callback: string, events: string[]) {
  const res = await adminCall(
    collection.POST,
    `/t/${provisioned.tenant.id}/admin/webhooks`,
    provisioned.keys.admin,
    {
      method: "POST",
      params: { tenantId: provisioned.tenant.id },
      body: { callback, events },
    },
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string };
}

async function deliveriesOf(provisioned: ProvisionedTenant, webhookId: string, query = "") {
  const tenantId = provisioned.tenant.id;
  const res = await adminCall(
    deliveriesRoute.GET,
    `/t/${tenantId}/admin/webhooks/${webhookId}/deliveries${query}`,
    provisioned.keys.admin,
    { params: { tenantId, webhookId } },
  );
  expect(res.status).toBe(200);
  return { total: Number(res.headers.get("x-total-count")), items: (await res.json()) as WireDelivery[] };
}

const emit = (tenantId: string, event: Parameters<typeof emitWebhookEvent>[1], data: unknown = { n: 1 }) =>
  emitWebhookEvent(tenantId, event, async () => data);

describe("emission (the outbox)", () => {
  it("a rolled-back transaction sends nothing; a committed one creates one delivery per matching endpoint", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/a", ["user"]);
    const other = await addWebhook(t, "https://93.184.215.14/b", ["session"]);
    await expect(
      transaction(async () => {
        expect(await emit(t.tenant.id, "user.create")).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await deliveriesOf(t, t.webhook.id)).total).toBe(0);

    await transaction(async () => {
      await emit(t.tenant.id, "user.create", { id: "u1" });
    });
    const { items, total } = await deliveriesOf(t, t.webhook.id);
    expect(total).toBe(1);
    expect(items[0]!).toMatchObject({
      event: "user.create",
      data: { id: "u1" },
      status: "pending",
      attempts: [],
    });
    expect((await deliveriesOf(t, other.id)).total).toBe(0);
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, t.tenant.id));
  });

  it("data at hand goes in one statement: nothing when nobody subscribes or the change rolls back", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/a", ["session"]);
    expect(await emitWebhookEvent(t.tenant.id, "user.create", { id: "nobody listens" })).toBe(0);
    await expect(
      transaction(async () => {
        expect(await emitWebhookEvent(t.tenant.id, "session.create.flow", { id: "s0" })).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await deliveriesOf(t, t.webhook.id)).total).toBe(0);
    expect(await emitWebhookEvent(t.tenant.id, "session.create.flow", { id: "s1" })).toBe(1);
    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items.map((item) => [item.event, item.data])).toEqual([["session.create.flow", { id: "s1" }]]);
    const events = await (
      await executor()
    )
      .select({ data: webhookEvents.data })
      .from(webhookEvents)
      .where(eq(webhookEvents.tenantId, t.tenant.id));
    expect(events).toEqual([{ data: { id: "s1" } }]);
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, t.tenant.id));
  });

  it("loads the data only when an enabled endpoint of the tenant subscribes", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/a", ["session.delete"]);
    const loads: string[] = [];
    const load = (name: string) => async () => {
      loads.push(name);
      return {};
    };
    expect(await emitWebhookEvent(t.tenant.id, "user.create", load("user.create"))).toBe(0);
    const bare = await createTestTenant();
    expect(await emitWebhookEvent(bare.tenant.id, "session.delete.explicit.logout", load("bare"))).toBe(0);
    await (await executor()).update(webhooks).set({ enabled: false }).where(eq(webhooks.id, t.webhook.id));
    expect(await emitWebhookEvent(t.tenant.id, "session.delete.explicit.logout", load("disabled"))).toBe(0);
    expect(loads).toEqual([]);
  });

  it("matches prefixes on dot boundaries and aliases to their canonical events", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/all-user", ["user"]);
    const cases: [string[], string[]][] = [
      [["user.update.email"], ["user.update.email.primary", "user.update.email.create"]],
      [["user.created"], ["user.create"]],
      [["user.login"], ["session.create.flow"]],
      [["user.logout"], ["session.delete.explicit.logout"]],
      [
        ["session.delete"],
        ["session.delete.explicit.logout", "session.delete.passive.limit", "session.delete.explicit.revoke"],
      ],
    ];
    const hooks = [];
    for (const [events] of cases) hooks.push(await addWebhook(t, "https://93.184.215.14/x", events));
    const all: Parameters<typeof emitWebhookEvent>[1][] = [
      "user.create",
      "user.update.email.primary",
      "user.update.email.create",
      "user.update.username.create",
      "user.delete",
      "session.create.flow",
      "session.delete.explicit.logout",
      "session.delete.explicit.revoke",
      "session.delete.passive.limit",
    ];
    for (const event of all) await emit(t.tenant.id, event);
    const received = async (id: string) =>
      (await deliveriesOf(t, id, "?per_page=100")).items.map((d) => d.event as string).sort();
    expect(await received(t.webhook.id)).toEqual(all.filter((event) => event.startsWith("user.")).sort());
    for (const [index, [, expected]] of cases.entries()) {
      expect(await received(hooks[index]!.id), cases[index]![0][0]).toEqual([...expected].sort());
    }
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, t.tenant.id));
  });
});

describe("delivery", () => {
  it("posts {event, token, data} signed per Standard Webhooks; the token verifies against the tenant JWKS; retries until 2xx", async () => {
    let failuresLeft = 2;
    const rx = await receiver((_request, response) => {
      if (failuresLeft-- > 0) return void response.writeHead(503).end("busy, try later");
      response.writeHead(200).end("ok");
    });
    const t = await tenantWithWebhook(`${rx.url}/hook`, ["user", "session"]);
    const outcomes: DeliveryOutcome[] = [];
    const unsubscribe = onWebhookOutcome((outcome) => outcomes.push(outcome));
    await transaction(async () => {
      await emit(t.tenant.id, "user.create", { id: "user-1", emails: [] });
      await emit(t.tenant.id, "session.delete.explicit.logout", { id: "session-1" });
    });
    await drain();
    unsubscribe();

    // Every event arrives; each delivery's webhook-id is stable across its attempts.
    const ids = new Set(rx.received.map((request) => request.headers["webhook-id"]));
    expect(ids.size).toBe(2);
    expect(rx.received.length).toBe(4);
    const jwks = createLocalJWKSet(await getJwks(t.tenant.id));
    const verifier = new StandardWebhook(t.webhook.secret);
    const seen = new Map<string, unknown>();
    for (const request of rx.received) {
      expect(request.path).toBe("/hook");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      const body = verifier.verify(request.body, request.headers as Record<string, string>) as {
        event: string;
        token: string;
        data: unknown;
      };
      const { payload, protectedHeader } = await jwtVerify(body.token, jwks, {
        audience: t.tenant.rpId,
        subject: "hanko webhooks",
      });
      expect(protectedHeader.kid).toBeTruthy();
      expect(payload.evt).toBe(body.event);
      expect(payload.data).toEqual(body.data);
      expect(payload.exp! - payload.iat!).toBe(300);
      seen.set(body.event, body.data);
    }
    expect(Object.fromEntries(seen)).toEqual({
      "user.create": { id: "user-1", emails: [] },
      "session.delete.explicit.logout": { id: "session-1" },
    });
    expect(outcomes.sort()).toEqual(["retry", "retry", "succeeded", "succeeded"]);

    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items).toHaveLength(2);
    const failedTwice =
      items.find((delivery) => delivery.attempts.length === 3) ?? items.find((d) => d.attempts.length === 2);
    expect(failedTwice).toBeDefined();
    for (const delivery of items) {
      expect(delivery).toMatchObject({ status: "succeeded", next_attempt_at: null });
      expect(delivery.attempt_count).toBe(delivery.attempts.length);
      expect(delivery.attempts.at(-1)).toMatchObject({ status_code: 200, response: "ok", error: null });
    }
    const failed = items
      .flatMap((delivery) => delivery.attempts)
      .filter((attempt) => attempt.status_code === 503);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toEqual({
      time: expect.any(String),
      status_code: 503,
      duration_ms: expect.any(Number),
      response: "busy, try later",
      error: "http_503",
    });
    const webhook = await adminCall(
      item.GET,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}`,
      t.keys.admin,
      {
        params: { tenantId: t.tenant.id, webhookId: t.webhook.id },
      },
    );
    expect(await webhook.json()).toMatchObject({ failures: 0, enabled: true });
  });

  it("gives up after the retry schedule; filters deliveries by status; keeps only 2 KiB of a response", async () => {
    const rx = await receiver((_request, response) => void response.writeHead(500).end("x".repeat(10_000)));
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    await emit(t.tenant.id, "user.create");
    await drain();
    expect(rx.received).toHaveLength(4);
    const { items } = await deliveriesOf(t, t.webhook.id, "?status=failed");
    expect(items).toHaveLength(1);
    expect(items[0]!.status).toBe("failed");
    expect(items[0]!.attempts).toHaveLength(4);
    expect(items[0]!.attempts[0]!.response).toHaveLength(2048);
    expect((await deliveriesOf(t, t.webhook.id, "?status=succeeded")).items).toEqual([]);
    const bad = await adminCall(
      deliveriesRoute.GET,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}/deliveries?status=nope`,
      t.keys.admin,
      { params: { tenantId: t.tenant.id, webhookId: t.webhook.id } },
    );
    expect(bad.status).toBe(400);
    const webhook = await adminCall(
      item.GET,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}`,
      t.keys.admin,
      {
        params: { tenantId: t.tenant.id, webhookId: t.webhook.id },
      },
    );
    expect(await webhook.json()).toMatchObject({ failures: 4, enabled: true });
  });

  it("follows no redirect: a 3xx is a failure", async () => {
    const rx = await receiver((request, response) => {
      if (request.path === "/hook") return void response.writeHead(302, { location: "/elsewhere" }).end();
      response.writeHead(200).end();
    });
    configureWebhooks({ allowPrivate: true, retrySchedule: [], jitter: 0, timeoutMs: 3000 });
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    await emit(t.tenant.id, "user.create");
    await drain();
    expect(rx.received.map((request) => request.path)).toEqual(["/hook"]);
    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items[0]!).toMatchObject({
      status: "failed",
      attempts: [{ status_code: 302, error: "http_302" }],
    });
  });

  it("times out a receiver that does not answer", async () => {
    const rx = await receiver(() => {
      /* never answers */
    });
    configureWebhooks({ allowPrivate: true, retrySchedule: [], jitter: 0, timeoutMs: 300 });
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    await emit(t.tenant.id, "user.create");
    const started = Date.now();
    await drain();
    expect(Date.now() - started).toBeLessThan(3000);
    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items[0]!).toMatchObject({
      status: "failed",
      attempts: [{ status_code: null, error: "timeout" }],
    });
    expect(items[0]!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(250);
  });

  it("refuses a private address again at delivery time (address_refused)", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/hook");
    // The host now resolves elsewhere (DNS changed since the check at creation): here, a private address.
    await (
      await executor()
    )
      .update(webhooks)
      .set({ callback: "https://10.20.30.40/hook" })
      .where(eq(webhooks.id, t.webhook.id));
    configureWebhooks({ allowPrivate: false, retrySchedule: [], jitter: 0, timeoutMs: 3000 });
    await emit(t.tenant.id, "user.create");
    await drain();
    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items[0]!).toMatchObject({
      status: "failed",
      attempts: [{ status_code: null, error: "address_refused", response: null }],
    });
  });

  it("after rotate_secret both signatures are sent and verify", async () => {
    const rx = await receiver();
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    const res = await adminCall(
      rotateRoute.POST,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}/rotate_secret`,
      t.keys.admin,
      {
        method: "POST",
        params: { tenantId: t.tenant.id, webhookId: t.webhook.id },
      },
    );
    const { secret } = (await res.json()) as { secret: string };
    await emit(t.tenant.id, "user.create");
    await drain();
    expect(rx.received).toHaveLength(1);
    const request = rx.received[0]!;
    const signatures = String(request.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    const headers = request.headers as Record<string, string>;
    for (const key of [secret, t.webhook.secret]) {
      expect(new StandardWebhook(key).verify(request.body, headers)).toMatchObject({ event: "user.create" });
      // Each signature alone verifies with exactly one of the secrets.
    }
    const alone = (signature: string) => ({ ...headers, "webhook-signature": signature });
    expect(() => new StandardWebhook(secret).verify(request.body, alone(signatures[0]!))).not.toThrow();
    expect(() =>
      new StandardWebhook(t.webhook.secret).verify(request.body, alone(signatures[1]!)),
    ).not.toThrow();
    // 24 h later only the new secret signs.
    await (
      await executor()
    )
      .update(webhooks)
      .set({ previousSecretUntil: sql`now() - interval '1 second'` })
      .where(eq(webhooks.id, t.webhook.id));
    await emit(t.tenant.id, "user.delete");
    await drain();
    expect(String(rx.received[1]!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() =>
      new StandardWebhook(t.webhook.secret).verify(
        rx.received[1]!.body,
        rx.received[1]!.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it("disables an endpoint whose deliveries have failed for 5 days, audited as webhook.disabled", async () => {
    const rx = await receiver((_request, response) => void response.writeHead(500).end());
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    configureWebhooks({ allowPrivate: true, retrySchedule: [60_000], jitter: 0, timeoutMs: 3000 });
    await emit(t.tenant.id, "user.create");
    await drain();
    const get = () =>
      adminCall(item.GET, `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}`, t.keys.admin, {
        params: { tenantId: t.tenant.id, webhookId: t.webhook.id },
      }).then((res) => res.json());
    expect(await get()).toMatchObject({ enabled: true, failures: 1 });
    // The streak began 5 days and a minute ago; the next failure disables the endpoint.
    const db = await executor();
    await db
      .update(webhooks)
      .set({ failingSince: sql`now() - interval '5 days 1 minute'` })
      .where(eq(webhooks.id, t.webhook.id));
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.webhookId, t.webhook.id));
    await emit(t.tenant.id, "user.delete");
    await drain();
    expect(await get()).toMatchObject({ enabled: false, failures: 3 });
    const audit = await listAuditEvents(t.tenant.id, { type: "webhook.disabled" });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]!).toMatchObject({ actor: "system", details: { webhookId: t.webhook.id } });
    // Disabled: no new deliveries, pending ones end without a request.
    expect(await emit(t.tenant.id, "user.create")).toBe(0);
    const before = rx.received.length;
    await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.webhookId, t.webhook.id));
    await drain();
    expect(rx.received.length).toBe(before);
    const pending = await deliveriesOf(t, t.webhook.id, "?status=pending");
    expect(pending.items).toEqual([]);
  });
});

describe("leases and concurrent workers", () => {
  it("a delivery whose lease expired (its worker died) is claimed again; the late first attempt is not recorded", async () => {
    const held: (() => void)[] = [];
    const rx = await receiver((_request, response, index) => {
      if (index === 0) held.push(() => response.writeHead(200).end("late"));
      else response.writeHead(200).end("second");
    });
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    configureWebhooks({ allowPrivate: true, retrySchedule: [0], jitter: 0, timeoutMs: 5000, leaseMs: 300 });
    await emit(t.tenant.id, "user.create");
    const first = processDueDeliveries({ limit: 10 }); // claims, sends, waits for the held answer
    await waitFor(() => rx.received.length === 1);
    expect(await processDueDeliveries({ limit: 10 })).toBe(0); // lease still held
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await processDueDeliveries({ limit: 10 })).toBe(1); // lease expired: claimed again and sent
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers["webhook-id"]).toBe(rx.received[0]!.headers["webhook-id"]);
    held.forEach((release) => release());
    await first;
    const { items } = await deliveriesOf(t, t.webhook.id);
    expect(items[0]!).toMatchObject({ status: "succeeded", attempt_count: 1 });
    expect(items[0]!.attempts).toHaveLength(1);
    expect(items[0]!.attempts[0]!.response).toBe("second");
  });

  it("releaseDeadLeases (an embedded instance's start) makes leased deliveries due again at once", async () => {
    const rx = await receiver((_request, response) => void response.writeHead(204).end());
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    configureWebhooks({ allowPrivate: true, retrySchedule: [0], jitter: 0 });
    await emit(t.tenant.id, "user.create");
    const db = await executor();
    // As a killed process leaves it: claimed, leased for a minute, never finished.
    await db
      .update(webhookDeliveries)
      .set({ leaseUntil: sql`now() + interval '60 seconds'`, leaseToken: sql`gen_random_uuid()` })
      .where(eq(webhookDeliveries.tenantId, t.tenant.id));
    expect(await processDueDeliveries({ limit: 10 })).toBe(0);
    expect(await releaseDeadLeases()).toBeGreaterThanOrEqual(1);
    expect(await processDueDeliveries({ limit: 10 })).toBe(1);
    expect((await deliveriesOf(t, t.webhook.id)).items[0]).toMatchObject({ status: "succeeded" });
  });

  it("two workers claiming at once never send the same attempt", async () => {
    const rx = await receiver(
      (_request, response) => void setTimeout(() => response.writeHead(204).end(), 20),
    );
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    // One tenant here: lift its in-flight cap so the three claims compete for the same rows.
    configureWebhooks({
      allowPrivate: true,
      retrySchedule: [0, 0, 0],
      jitter: 0,
      timeoutMs: 3000,
      tenantConcurrency: 100,
    });
    await transaction(async () => {
      for (let i = 0; i < 40; i++) await emit(t.tenant.id, "user.create", { i });
    });
    const claimed = await Promise.all([
      processDueDeliveries({ limit: 40 }),
      processDueDeliveries({ limit: 40 }),
      processDueDeliveries({ limit: 40 }),
    ]);
    expect(claimed.reduce((sum, n) => sum + n, 0)).toBe(40);
    const ids = rx.received.map((request) => request.headers["webhook-id"]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect((await deliveriesOf(t, t.webhook.id, "?status=succeeded&per_page=100")).total).toBe(40);
  });

  it("reports the queue depth and the age of the oldest due delivery", async () => {
    const t = await tenantWithWebhook("https://93.184.215.14/stats");
    await drain();
    expect(await webhookQueueStats()).toEqual({ depth: 0, oldestPendingSeconds: 0 });
    await emit(t.tenant.id, "user.create");
    await (
      await executor()
    )
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now() - interval '30 seconds'` })
      .where(eq(webhookDeliveries.webhookId, t.webhook.id));
    const stats = await webhookQueueStats();
    expect(stats.depth).toBe(1);
    expect(stats.oldestPendingSeconds).toBeGreaterThanOrEqual(29);
    await (await executor()).delete(webhookDeliveries).where(eq(webhookDeliveries.webhookId, t.webhook.id));
  });
});

describe("replay and test events", () => {
  it("replays a delivery as a new delivery of the same event, and sends a test event to one endpoint", async () => {
    const rx = await receiver();
    const t = await tenantWithWebhook(`${rx.url}/hook`, ["session"]);
    await emit(t.tenant.id, "session.create.flow", { id: "s1" });
    await drain();
    const original = (await deliveriesOf(t, t.webhook.id)).items[0]!;
    const params = { tenantId: t.tenant.id, webhookId: t.webhook.id };
    const replay = await adminCall(
      replayRoute.POST,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}/deliveries/${original.id}/replay`,
      t.keys.admin,
      { method: "POST", params: { ...params, deliveryId: original.id } },
    );
    expect(replay.status).toBe(202);
    const replayed = await replay.json();
    expect(replayed).toMatchObject({
      event: "session.create.flow",
      event_id: original.event_id,
      status: "pending",
      attempts: [],
      data: { id: "s1" },
    });
    expect(replayed.id).not.toBe(original.id);

    const test = await adminCall(
      testRoute.POST,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}/test`,
      t.keys.admin,
      {
        method: "POST",
        params,
      },
    );
    expect(test.status).toBe(202);
    const testDelivery = await test.json();
    expect(testDelivery).toMatchObject({
      event: "webhook.test",
      status: "pending",
      data: { webhook_id: t.webhook.id },
    });

    await drain();
    expect(rx.received.map((request) => JSON.parse(request.body).event).sort()).toEqual([
      "session.create.flow",
      "session.create.flow",
      "webhook.test",
    ]);
    const ids = rx.received.map((request) => request.headers["webhook-id"]);
    expect(ids).toEqual(expect.arrayContaining([original.id, replayed.id, testDelivery.id]));
    const types = (await listAuditEvents(t.tenant.id, { limit: 50 })).items.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["webhook.delivery_replayed", "webhook.test_sent"]));

    const other = await createTestTenant();
    const foreign = await adminCall(
      replayRoute.POST,
      `/t/${other.tenant.id}/admin/webhooks/${t.webhook.id}/deliveries/${original.id}/replay`,
      other.keys.admin,
      {
        method: "POST",
        params: { tenantId: other.tenant.id, webhookId: t.webhook.id, deliveryId: original.id },
      },
    );
    expect(foreign.status).toBe(404);
    const missing = await adminCall(
      replayRoute.POST,
      `/t/${t.tenant.id}/admin/webhooks/${t.webhook.id}/deliveries/not-a-uuid/replay`,
      t.keys.admin,
      { method: "POST", params: { ...params, deliveryId: "not-a-uuid" } },
    );
    expect(missing.status).toBe(400);
  });
});

describe("fairness between tenants", () => {
  it("a tenant with 50 due deliveries to a slow receiver does not starve another tenant's one", async () => {
    const held: (() => void)[] = [];
    const slow = await receiver((_request, response) => void held.push(() => response.writeHead(204).end()));
    const fast = await receiver();
    const a = await tenantWithWebhook(`${slow.url}/a`);
    const b = await tenantWithWebhook(`${fast.url}/b`);
    await transaction(async () => {
      for (let i = 0; i < 50; i++) await emit(a.tenant.id, "user.create", { i });
    });
    await emit(b.tenant.id, "user.create", { b: true }); // due after all of a's
    const round = processDueDeliveries({ limit: 32 });
    await waitFor(() => fast.received.length === 1 && slow.received.length === 16);
    // a's sixteen (the default cap) are in flight, held by its receiver: no worker may claim more of a's now.
    expect(await processDueDeliveries({ limit: 32 })).toBe(0);
    expect(slow.received).toHaveLength(16);
    expect((await deliveriesOf(b, b.webhook.id)).items[0]).toMatchObject({ status: "succeeded" });
    held.splice(0).forEach((release) => release());
    expect(await round).toBe(17);
    slow.respondWith((_request, response) => void response.writeHead(204).end());
    expect(await drain()).toBe(34);
    expect((await deliveriesOf(a, a.webhook.id, "?status=succeeded&per_page=100")).total).toBe(50);
  });

  it("the worker claims a capped tenant's next deliveries as its slots free, not only at the next poll", async () => {
    const rx = await receiver();
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    await transaction(async () => {
      for (let i = 0; i < 20; i++) await emit(t.tenant.id, "user.create", { i });
    });
    const worker = createWebhookWorker({ pollIntervalMs: 60_000 });
    try {
      await waitFor(() => rx.received.length === 20, 10_000);
    } finally {
      await worker.stop();
    }
    expect((await deliveriesOf(t, t.webhook.id, "?status=succeeded&per_page=100")).total).toBe(20);
  });
});

describe("retention (sweepWebhookHistory)", () => {
  it("deletes deliveries finished 30+ days ago with their attempts, then events without deliveries; keeps pending ones", async () => {
    const rx = await receiver();
    const t = await tenantWithWebhook(`${rx.url}/hook`);
    const gone = await addWebhook(t, `${rx.url}/gone`, ["session"]);
    await emit(t.tenant.id, "user.create", { n: 1 });
    await emit(t.tenant.id, "user.create", { n: 2 });
    await emit(t.tenant.id, "user.create", { n: 3 });
    await emit(t.tenant.id, "session.create.flow", { n: 4 });
    await drain();
    // A deleted endpoint's deliveries go with it: its event is left without any.
    await adminCall(item.DELETE, `/t/${t.tenant.id}/admin/webhooks/${gone.id}`, t.keys.admin, {
      method: "DELETE",
      params: { tenantId: t.tenant.id, webhookId: gone.id },
    });
    const db = await executor();
    const finished = (await deliveriesOf(t, t.webhook.id)).items; // newest first: n=3, 2, 1
    expect(finished.map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    await emit(t.tenant.id, "user.create", { n: 5 });
    const [pending] = (await deliveriesOf(t, t.webhook.id, "?status=pending")).items;
    // Age everything of this tenant; the newest finished delivery (n=3) finished recently.
    await db
      .update(webhookEvents)
      .set({ createdAt: sql`now() - interval '40 days'` })
      .where(eq(webhookEvents.tenantId, t.tenant.id));
    await db
      .update(webhookDeliveries)
      .set({ updatedAt: sql`now() - interval '31 days'`, nextAttemptAt: sql`now() + interval '1 day'` })
      .where(inArray(webhookDeliveries.id, [finished[1]!.id, finished[2]!.id, pending!.id]));

    expect(await sweepWebhookHistory({ batch: 1 })).toEqual({ deliveries: 2, events: 3 });

    const left = (await deliveriesOf(t, t.webhook.id)).items.map((d) => d.id);
    expect(left.sort()).toEqual([finished[0]!.id, pending!.id].sort());
    const attempts = await db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, [finished[1]!.id, finished[2]!.id]));
    expect(attempts).toEqual([]);
    const events = await db
      .select({ data: webhookEvents.data })
      .from(webhookEvents)
      .where(eq(webhookEvents.tenantId, t.tenant.id));
    expect(
      events.map((e) => e.data).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    ).toEqual([{ n: 3 }, { n: 5 }]);
    expect(await sweepWebhookHistory()).toEqual({ deliveries: 0, events: 0 });
  });
});

describe("DNS at delivery time", () => {
  it("a name that stops answering is dns_timeout, one that stops existing dns_failed; creation is 400 for both", async () => {
    const dns = await startFakeDns();
    try {
      const settings = {
        retrySchedule: [0, 0],
        jitter: 0,
        timeoutMs: 3000,
        dnsServers: [dns.server],
        dnsTimeoutMs: 300,
      };
      configureWebhooks({ allowPrivate: false, ...settings });
      dns.answer("hooks.example.test", ["93.184.215.14"]);
      const t = await tenantWithWebhook("https://hooks.example.test/hook");
      for (const [name, answer] of [
        ["missing.example.test", "nxdomain"],
        ["slow.example.test", "silent"],
      ] as const) {
        dns.answer(name, answer);
        const res = await adminCall(collection.POST, `/t/${t.tenant.id}/admin/webhooks`, t.keys.admin, {
          method: "POST",
          params: { tenantId: t.tenant.id },
          body: { callback: `https://${name}/hook`, events: ["user"] },
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ code: 400, message: expect.stringContaining(name) });
      }
      await emit(t.tenant.id, "user.create");
      dns.answer("hooks.example.test", "silent");
      expect(await processDueDeliveries()).toBe(1);
      dns.answer("hooks.example.test", "nxdomain");
      expect(await processDueDeliveries()).toBe(1);
      const { items } = await deliveriesOf(t, t.webhook.id);
      expect(items[0]!.attempts.map((attempt) => attempt.error)).toEqual(["dns_timeout", "dns_failed"]);
    } finally {
      await dns.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
