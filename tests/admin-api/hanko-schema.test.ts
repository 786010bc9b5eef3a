import { describe, expect, it } from "vitest";
import * as auditLogsRoute from "@/app/(admin-api)/t/[tenantId]/admin/audit_logs/route";
import * as impersonateRoute from "@/app/(admin-api)/t/[tenantId]/admin/sessions/route";
import * as sessionsRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/sessions/route";
import { recordAuditEvent } from "@/lib/audit";
import { adminCall } from "@/tests/helpers/admin-api";
import { adminFixture } from "@/tests/helpers/admin-user-resources";
import { sesameInProcess } from "@/tests/helpers/cli";
import { HankoAuditLog, HankoSession } from "@/tests/helpers/hanko-admin-schemas";
import { sessionFor } from "@/tests/helpers/public-api";

/** Each item checked against Hanko's schema; the list of failures (empty when all pass). */
function schemaFailures(items: unknown[], schema: typeof HankoSession | typeof HankoAuditLog): string[] {
  return items.flatMap((item, index) => {
    const result = schema.safeParse(item);
    return result.success ? [] : [`item ${index}: ${JSON.stringify(item)}: ${result.error.message}`];
  });
}

describe("security 3.10: admin API answers validate against Hanko's published admin schema", () => {
  it("security 3.10: GET /users/{id}/sessions leaves user_agent and ip_address out of a session without them", async () => {
    const fx = await adminFixture();
    await sessionFor(fx.tenant, fx.user);
    // An admin-made session without user_agent or ip_address in the body.
    const made = await adminCall(impersonateRoute.POST, `/t/${fx.tenant.id}/admin/sessions`, fx.admin, {
      method: "POST",
      body: { user_id: fx.user.id },
      params: { tenantId: fx.tenant.id },
    });
    expect(made.status).toBe(200);
    const res = await adminCall(
      sessionsRoute.GET,
      `/t/${fx.tenant.id}/admin/users/${fx.user.id}/sessions`,
      fx.admin,
      { params: { tenantId: fx.tenant.id, userId: fx.user.id } },
    );
    expect(res.status).toBe(200);
    const items = (await res.json()) as Record<string, unknown>[];
    expect(items).toHaveLength(2);
    expect(schemaFailures(items, HankoSession)).toEqual([]);
    const bare = items.find((item) => item.impersonated_by !== null)!;
    expect(bare).not.toHaveProperty("user_agent");
    expect(bare).not.toHaveProperty("ip_address");
    const own = items.find((item) => item.impersonated_by === null)!;
    expect(own).toMatchObject({ user_agent: "vitest", ip_address: "127.0.0.1" });
  });

  it("security 3.10: GET /audit_logs gives CLI and system events an IP address (0.0.0.0: none), and filters by it", async () => {
    const fx = await adminFixture();
    const cli = await sesameInProcess("key", "create", "--tenant", fx.tenant.id, "--scope", "passkey");
    expect(cli.code, cli.stderr).toBe(0);
    await recordAuditEvent(fx.tenant.id, { type: "test.sweep.succeeded", actor: "system", details: {} });
    await recordAuditEvent(fx.tenant.id, {
      type: "test.login.succeeded",
      actor: fx.user.id,
      ip: "2001:db8::7",
      userAgent: "Firefox/140",
      requestId: "req-1",
      details: {},
    });
    const list = async (query: string) => {
      const res = await adminCall(
        auditLogsRoute.GET,
        `/t/${fx.tenant.id}/admin/audit_logs?${query}`,
        fx.admin,
        { params: { tenantId: fx.tenant.id } },
      );
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>[];
    };
    const items = await list("per_page=100");
    expect(items.map((item) => [item.type, item.meta_source_ip])).toEqual(
      expect.arrayContaining([
        ["api_key.created", "0.0.0.0"],
        ["test.sweep.succeeded", "0.0.0.0"],
        ["test.login.succeeded", "2001:db8::7"],
      ]),
    );
    expect(schemaFailures(items, HankoAuditLog)).toEqual([]);
    // What the list shows is what the filter takes: 0.0.0.0 selects the events without a client IP.
    const unplaced = await list("meta_source_ip=0.0.0.0&per_page=100");
    expect(unplaced.map((item) => item.type).sort()).toEqual(
      items
        .filter((item) => item.meta_source_ip === "0.0.0.0")
        .map((item) => item.type)
        .sort(),
    );
    expect(unplaced.map((item) => item.type)).toContain("api_key.created");
    expect((await list("meta_source_ip=2001:db8::7")).map((item) => item.type)).toEqual([
      "test.login.succeeded",
    ]);
  });
});
