import { describe, expect, it } from "vitest";
import * as login from "@/app/(public-api)/t/[tenantId]/password/login/route";
import { GET as livez } from "@/app/(health)/livez/route";
import { sql } from "drizzle-orm";
import { recordAuditEvent } from "@/lib/audit";
import { executor, transaction } from "@/lib/db";
import { registerWebhookQueueProbe, webhookDeliveries } from "@/lib/metrics";
import { call } from "@/tests/helpers/http";
import { createPublicTenant, createUserWithEmail, publicCall } from "@/tests/helpers/public-api";
import { scrape, sample } from "./metrics-scrape";

// SESAME_METRICS_TOKEN is unset in this file: /metrics is open (metrics-token.test.ts sets it).
describe("GET /metrics", () => {
  it("answers Prometheus text with process, database and HTTP metrics, open without SESAME_METRICS_TOKEN", async () => {
    await call(livez, "/livez");
    const text = await scrape();
    // collectDefaultMetrics, under their standard names
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(sample(text, "sesame_database_up")).toBe(1);
    const postgres = Boolean(process.env.DATABASE_URL);
    expect(sample(text, "sesame_database_pool_max_connections")).toBe(postgres ? 10 : 1);
    if (!postgres) expect(text).not.toContain("sesame_database_connections{");
    const labels = { surface: "health", method: "GET", route: "/livez", status: "200" };
    expect(sample(text, "sesame_http_requests_total", labels)).toBeGreaterThanOrEqual(1);
    expect(sample(text, "sesame_http_request_duration_seconds_count", labels)).toBeGreaterThanOrEqual(1);
    expect(sample(text, "sesame_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(
      sample(text, "sesame_http_request_duration_seconds_count", labels),
    );
  });

  it.runIf(process.env.DATABASE_URL)(
    "Postgres: reports the server's connections by state, a transaction held open among them",
    async () => {
      // The scrape runs while this transaction's connection waits for it: idle in transaction.
      const text = await transaction(async () => {
        await (await executor()).execute(sql`select 1`);
        return scrape();
      });
      expect(sample(text, "sesame_database_connections", { state: "idle in transaction" })).toBeGreaterThan(
        0,
      );
    },
  );

  it("labels requests with the contract's path template, never the raw path, and counts each status", async () => {
    const tenant = await createPublicTenant({ platform: { password: { enabled: true } } });
    const user = await createUserWithEmail(tenant);
    const labels = {
      surface: "public",
      method: "POST",
      route: "/t/{tenantId}/password/login",
      status: "401",
    };
    const before = sample(await scrape(), "sesame_http_requests_total", labels) ?? 0;
    const body = { user_id: user.id, password: "not the password" };
    const res = await publicCall(login.POST, tenant, "POST", "/password/login", { body });
    expect(res.status).toBe(401);
    const invalid = await publicCall(login.POST, tenant, "POST", "/password/login", { body: { user_id: 1 } });
    expect(invalid.status).toBe(400);

    const preflight = await publicCall(login.OPTIONS, tenant, "OPTIONS", "/password/login", {
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);

    const text = await scrape();
    expect(sample(text, "sesame_http_requests_total", labels)).toBe(before + 1);
    expect(
      sample(text, "sesame_http_requests_total", { ...labels, method: "OPTIONS", status: "204" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "sesame_http_requests_total", { ...labels, status: "400" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(text).not.toContain(tenant.id);
    expect(text).not.toContain(user.id);
  });

  it("counts ceremonies by kind and outcome from the audit events, the rest as other", async () => {
    const tenant = await createPublicTenant({ platform: { password: { enabled: true } } });
    const user = await createUserWithEmail(tenant);
    const count = (text: string, kind: string, outcome: string) =>
      sample(text, "sesame_ceremonies_total", { kind, outcome }) ?? 0;
    const before = await scrape();

    // A real ceremony: a password login that fails (the user has no password).
    const body = { user_id: user.id, password: "not the password" };
    expect((await publicCall(login.POST, tenant, "POST", "/password/login", { body })).status).toBe(401);
    // Two-step ceremonies count once: at finalize, or when initialize fails.
    for (const type of [
      "passkey.login.initialize.succeeded",
      "passkey.login.finalize.succeeded",
      "passkey.login.initialize.failed",
      "flow.login.password_login.failed",
      "user.deleted",
    ]) {
      await recordAuditEvent(tenant.id, { type });
    }

    const after = await scrape();
    expect(count(after, "password.login", "failed")).toBe(count(before, "password.login", "failed") + 1);
    expect(count(after, "passkey.login", "succeeded")).toBe(count(before, "passkey.login", "succeeded") + 1);
    expect(count(after, "passkey.login", "failed")).toBe(count(before, "passkey.login", "failed") + 1);
    expect(count(after, "other", "failed")).toBe(count(before, "other", "failed") + 1);
    expect(after).not.toMatch(/sesame_ceremonies_total\{kind="user/);
  });

  it("reports the webhook queue through the registered probe, once per scrape, and survives a failing probe", async () => {
    let calls = 0;
    registerWebhookQueueProbe(async () => {
      calls += 1;
      return { depth: 3, oldestPendingSeconds: 42.5 };
    });
    webhookDeliveries.inc({ outcome: "succeeded" });
    webhookDeliveries.inc({ outcome: "failed" }, 2);
    const text = await scrape();
    expect(calls).toBe(1);
    expect(sample(text, "sesame_webhook_queue_depth")).toBe(3);
    expect(sample(text, "sesame_webhook_oldest_pending_seconds")).toBe(42.5);
    expect(sample(text, "sesame_webhook_deliveries_total", { outcome: "succeeded" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, "sesame_webhook_deliveries_total", { outcome: "failed" })).toBeGreaterThanOrEqual(2);

    registerWebhookQueueProbe(async () => {
      throw new Error("the queue is unreachable");
    });
    const failing = await scrape();
    expect(sample(failing, "sesame_webhook_queue_depth")).toBeNaN();
    expect(sample(failing, "sesame_webhook_oldest_pending_seconds")).toBeNaN();

    // A probe that never answers does not hold the scrape longer than 2 s.
    registerWebhookQueueProbe(() => new Promise(() => {}));
    const started = Date.now();
    const hung = await scrape();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sample(hung, "sesame_webhook_queue_depth")).toBeNaN();
    expect(sample(failing, "sesame_database_up")).toBe(1);
  });
});
