import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { adminCall } from "@/tests/helpers/admin-api";
import { routeHandlers } from "@/tests/helpers/routes";
import { createTestTenant } from "@/tests/helpers/tenants";

/**
 * Before authentication the admin API tells nobody whether a tenant exists: an unknown tenant and a known
 * one get the same 401 on every route, without a key and with another tenant's key.
 */
const ROOT = path.join(import.meta.dirname, "../../app/(admin-api)");

/** A valid value for each path parameter but the tenant (the route must reach authentication). */
const PARAMS: Record<string, string> = {
  userId: randomUUID(),
  emailId: randomUUID(),
  sessionId: randomUUID(),
  credentialId: "credential",
  providerId: randomUUID(),
  slug: "google",
  webhookId: randomUUID(),
  deliveryId: randomUUID(),
};

function paramsOf(template: string, tenantId: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = { tenantId };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    params[name] ??= PARAMS[name] ?? "x";
    return params[name];
  });
  return { path, params };
}

describe("security 3.6: the admin API answers an unknown tenant as a known one before authentication", () => {
  it("security 3.6: every admin route answers 401 in the platform shape for an unknown and a known tenant alike", async () => {
    const known = await createTestTenant();
    const other = await createTestTenant();
    const unknown = randomUUID();
    const handlers = await routeHandlers(ROOT);
    expect(handlers.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const { method, template, handler } of handlers) {
      for (const key of [undefined, other.keys.admin, known.keys.passkey]) {
        for (const tenantId of [known.tenant.id, unknown]) {
          const { path, params } = paramsOf(template, tenantId);
          const body = method === "GET" || method === "DELETE" ? undefined : {};
          const res = await adminCall(handler, path, key, { method, params, body });
          const text = await res.text();
          answers.push(
            `${method} ${template} ${tenantId === unknown ? "unknown" : "known"}: ${res.status} ${text}`,
          );
        }
      }
    }
    const unexpected = answers.filter(
      (answer) => !answer.endsWith(': 401 {"code":401,"message":"Unauthorized"}'),
    );
    expect(unexpected).toEqual([]);
  });
});
