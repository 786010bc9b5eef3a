import { describe, expect, it } from "vitest";
import { GET } from "@/app/(admin-api)/t/[tenantId]/admin/audit_logs/route";
import { recordAuditEvent } from "@/lib/audit";
import { adminCall } from "@/tests/helpers/admin-api";
import { createUserWithEmail } from "@/tests/helpers/public-api";
import { createTestTenant } from "@/tests/helpers/tenants";

const list = (tenantId: string, key: string | undefined, query = "") =>
  adminCall(GET, `/t/${tenantId}/admin/audit_logs${query ? `?${query}` : ""}`, key, { params: { tenantId } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function itemsOf(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

describe("GET /t/{tenant_id}/admin/audit_logs", () => {
  it("answers Hanko's item shape, newest first, with X-Total-Count and Link", async () => {
    const { tenant, keys } = await createTestTenant();
    const user = await createUserWithEmail(tenant, "Actor@Example.com".toLowerCase());
    const succeeded = await recordAuditEvent(tenant.id, {
      type: "test.login.succeeded",
      actor: user.id,
      ip: "203.0.113.7",
      userAgent: "Firefox/140",
      requestId: "req-1",
      details: { login_method: "passkey" },
    });
    const failed = await recordAuditEvent(tenant.id, {
      type: "test.login.failed",
      actor: "api_key:key-1",
      details: { reason: "passcode invalid: 2 attempts left", status: 401 },
    });

    const res = await list(tenant.id, keys.admin, "type=test.*");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-total-count")).toBe("2");
    expect(res.headers.get("link")).toBe(
      `</t/${tenant.id}/admin/audit_logs?type=test.*&page=1&per_page=20>; rel="first"`,
    );
    expect(await itemsOf(res)).toEqual([
      {
        id: failed.id,
        type: "test.login.failed",
        error: "passcode invalid: 2 attempts left",
        meta_http_request_id: "",
        meta_source_ip: "0.0.0.0",
        meta_user_agent: "",
        details: { reason: "passcode invalid: 2 attempts left", status: 401 },
        created_at: failed.createdAt.toISOString(),
        updated_at: failed.createdAt.toISOString(),
      },
      {
        id: succeeded.id,
        type: "test.login.succeeded",
        meta_http_request_id: "req-1",
        meta_source_ip: "203.0.113.7",
        meta_user_agent: "Firefox/140",
        actor_user_id: user.id,
        actor_email: "actor@example.com",
        details: { login_method: "passkey" },
        created_at: succeeded.createdAt.toISOString(),
        updated_at: succeeded.createdAt.toISOString(),
      },
    ]);
  });

  it("names what went wrong on failure records only: the reason, else the code", async () => {
    const { tenant, keys } = await createTestTenant();
    await recordAuditEvent(tenant.id, {
      type: "test.err.flow.failed",
      details: { state: "x", code: "otp_invalid" },
    });
    await recordAuditEvent(tenant.id, { type: "test.err.rejected", details: { reason: "flow expired" } });
    await recordAuditEvent(tenant.id, {
      type: "test.err.limited",
      details: { reason: "too many", status: 429 },
    });
    await recordAuditEvent(tenant.id, { type: "test.err.succeeded", details: { reason: "not an error" } });
    await recordAuditEvent(tenant.id, { type: "test.err.bare.failed" });
    const items = await itemsOf(await list(tenant.id, keys.admin, "type=test.err.*"));
    expect(items.map((item) => [item.type, item.error])).toEqual([
      ["test.err.bare.failed", undefined],
      ["test.err.succeeded", undefined],
      ["test.err.limited", "too many"],
      ["test.err.rejected", "flow expired"],
      ["test.err.flow.failed", "otp_invalid"],
    ]);
  });

  it("pages with page and per_page (default 20) and links first, last, next and prev as Hanko", async () => {
    const { tenant, keys } = await createTestTenant();
    for (let i = 0; i < 25; i++) await recordAuditEvent(tenant.id, { type: "test.paged", details: { i } });
    const base = `/t/${tenant.id}/admin/audit_logs`;

    const first = await list(tenant.id, keys.admin, "type=test.paged");
    expect((await itemsOf(first)).map((item) => (item.details as { i: number }).i)).toEqual(
      Array.from({ length: 20 }, (_, k) => 24 - k),
    );
    expect(first.headers.get("x-total-count")).toBe("25");
    expect(first.headers.get("link")).toBe(
      `<${base}?type=test.paged&page=2&per_page=20>; rel="last",<${base}?type=test.paged&page=2&per_page=20>; rel="next"`,
    );

    const middle = await list(tenant.id, keys.admin, "type=test.paged&per_page=10&page=2");
    expect((await itemsOf(middle)).map((item) => (item.details as { i: number }).i)).toEqual([
      14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
    ]);
    expect(middle.headers.get("link")).toBe(
      [
        `<${base}?type=test.paged&per_page=10&page=1>; rel="first"`,
        `<${base}?type=test.paged&per_page=10&page=3>; rel="last"`,
        `<${base}?type=test.paged&per_page=10&page=3>; rel="next"`,
        `<${base}?type=test.paged&per_page=10&page=1>; rel="prev"`,
      ].join(","),
    );

    const beyond = await list(tenant.id, keys.admin, "type=test.paged&per_page=10&page=9");
    expect(await itemsOf(beyond)).toEqual([]);
    expect(beyond.headers.get("x-total-count")).toBe("25");
  });

  it("filters by time range, exact and prefix types (repeatable), actor id and email, IP and free text", async () => {
    const { tenant, keys } = await createTestTenant();
    const alice = await createUserWithEmail(tenant, "alice@wonder.example");
    const bob = await createUserWithEmail(tenant, "bob@builder.example");
    const event = async (type: string, actor: string, ip: string, userAgent: string, details = {}) => {
      const row = await recordAuditEvent(tenant.id, { type, actor, ip, userAgent, details });
      await sleep(5);
      return row;
    };
    const e1 = await event("passkey.login.succeeded", alice.id, "198.51.100.1", "Safari/18");
    const e2 = await event("passkey.login.failed", bob.id, "198.51.100.2", "Chrome/130", { reason: "no" });
    const e3 = await event("password.login.succeeded", alice.id, "2001:db8::1", "Edge/130", {
      flow_id: "needle-42",
    });
    const e4 = await event("email.create.succeeded", "cli", "198.51.100.1", "sesame-cli");
    const ids = async (query: string) =>
      (await itemsOf(await list(tenant.id, keys.admin, query))).map((item) => item.id);

    expect(
      await ids(`start_time=${e2.createdAt.toISOString()}&end_time=${e4.createdAt.toISOString()}`),
    ).toEqual([e3.id, e2.id]);
    expect(
      await ids(`start_time=${encodeURIComponent(e3.createdAt.toISOString().replace("Z", "+00:00"))}`),
    ).toEqual([e4.id, e3.id]);
    expect(await ids("type=passkey.login.failed")).toEqual([e2.id]);
    expect(await ids("type=passkey.*")).toEqual([e2.id, e1.id]);
    expect(await ids("type=passkey.login.failed&type=password.*")).toEqual([e3.id, e2.id]);
    expect(await ids("type=passkey")).toEqual([]);
    expect(await ids(`actor_user_id=${alice.id}`)).toEqual([e3.id, e1.id]);
    expect(await ids("actor_email=BOB@builder.example")).toEqual([e2.id]);
    expect(await ids("actor_email=nobody@builder.example")).toEqual([]);
    expect(await ids(`actor_email=bob@builder.example&actor_user_id=${alice.id}`)).toEqual([]);
    expect(await ids("meta_source_ip=198.51.100.1")).toEqual([e4.id, e1.id]);
    expect(await ids("meta_source_ip=2001:db8::1")).toEqual([e3.id]);
    expect(await ids("q=chrome")).toEqual([e2.id]);
    expect(await ids("q=NEEDLE-4")).toEqual([e3.id]);
    expect(await ids("q=wonder.exam")).toEqual([e3.id, e1.id]);
    expect(await ids("q=email.create")).toEqual([e4.id]);
    expect(await ids("q=100%25")).toEqual([]);
    expect(await ids("q=passkey&meta_source_ip=198.51.100.2")).toEqual([e2.id]);
  });

  it("never shows another tenant's events", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const bUser = await createUserWithEmail(b.tenant, `b-${Date.now()}@other.example`);
    await recordAuditEvent(b.tenant.id, { type: "test.other", actor: bUser.id, ip: "192.0.2.99" });
    for (const query of [
      "",
      "type=test.other",
      `actor_user_id=${bUser.id}`,
      "meta_source_ip=192.0.2.99",
      "q=other",
    ]) {
      const res = await list(a.tenant.id, a.keys.admin, query);
      const items = await itemsOf(res);
      expect(items.map((item) => item.type)).not.toContain("test.other");
    }
  });

  it("answers 401 {code, message} without a key, with a passkey or authenticator key, or another tenant's", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    for (const key of [undefined, keys.passkey, keys.authenticator, other.keys.admin]) {
      for (const accept of ["application/json", "text/csv"]) {
        const res = await adminCall(GET, `/t/${tenant.id}/admin/audit_logs`, key, {
          params: { tenantId: tenant.id },
          headers: { accept },
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
      }
    }
  });

  it("answers 401 for a tenant that does not exist (no key matches it) and 400 for a tenant id that is not a UUID", async () => {
    const { keys } = await createTestTenant();
    const missing = await list("00000000-0000-4000-8000-000000000000", keys.admin);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ code: 401, message: "Unauthorized" });
    const bad = await list("not-a-uuid", keys.admin);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 400 });
  });

  it.each([
    "page=0",
    "page=-1",
    "page=abc",
    "page=1000001",
    "per_page=0",
    "per_page=101",
    "per_page=1.5",
    "start_time=yesterday",
    "start_time=2026-01-01",
    "end_time=2026-01-01T00:00:00",
    "start_time=2026-02-01T00:00:00Z&end_time=2026-01-01T00:00:00Z",
    "type=passkey..login",
    "type=*",
    "type=passkey.*.failed",
    "type=ok&type=bad%20type",
    "meta_source_ip=not-an-ip",
    "actor_email=",
    `q=${"x".repeat(201)}`,
  ])("answers 400 {code, message} for %s, in JSON and for CSV", async (query) => {
    const { tenant, keys } = await createTestTenant();
    for (const accept of ["application/json", "text/csv"]) {
      const res = await adminCall(GET, `/t/${tenant.id}/admin/audit_logs?${query}`, keys.admin, {
        params: { tenantId: tenant.id },
        headers: { accept },
      });
      expect(res.status, `${query} ${accept}`).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body).toEqual({ code: 400, message: expect.any(String) });
    }
  });
});
