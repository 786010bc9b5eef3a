import { and, count, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as publicLoginInit from "@/app/(public-api)/t/[tenantId]/webauthn/login/initialize/route";
import { executor } from "@/lib/db";
import { auditLogs, webauthnChallenges } from "@/lib/db/schema";
import { updateTenant } from "@/lib/tenants";
import { postHref } from "../helpers/flows";
import { passkeyRequest } from "../helpers/passkey-api";
import { expectPasskeyError, setupTenant } from "../helpers/passkey-security";
import { createPublicTenant, expectPublicError, publicCall } from "../helpers/public-api";

const IP = { "x-forwarded-for": "198.51.100.23" };

async function rows(tenantId: string) {
  const db = await executor();
  const [challenges] = await db
    .select({ n: count() })
    .from(webauthnChallenges)
    .where(eq(webauthnChallenges.tenantId, tenantId));
  const [audits] = await db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.tenantId, tenantId));
  return { challenges: challenges!.n, audits: audits!.n };
}

describe("security 10: unauthenticated writes are bounded per client", () => {
  it("security 10: discoverable Passkey API logins are rate-limited per IP before a challenge is stored; the API key's calls are not", async () => {
    const { tenant, keys } = await setupTenant({ signingAlgorithm: "ES256" });
    await updateTenant(tenant.id, {
      platform: { rateLimits: { webauthn_login: { points: 3, durationSeconds: 60 } } },
    });
    for (let i = 0; i < 3; i++) {
      const res = await passkeyRequest(tenant.id, "POST", "/login/initialize", { body: {}, headers: IP });
      expect(res.status).toBe(200);
    }
    const before = await rows(tenant.id);
    const refused = await passkeyRequest(tenant.id, "POST", "/login/initialize", { body: {}, headers: IP });
    await expectPasskeyError(refused, 429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const after = await rows(tenant.id);
    expect(after.challenges).toBe(before.challenges);
    // Another client is not affected.
    const other = await passkeyRequest(tenant.id, "POST", "/login/initialize", {
      body: {},
      headers: { "x-forwarded-for": "198.51.100.24" },
    });
    expect(other.status).toBe(200);
    // A backend with the API key asking for a user's login is not the anonymous path.
    const keyed = await passkeyRequest(tenant.id, "POST", "/login/initialize", {
      body: { user_id: "nobody" },
      apiKey: keys.passkey,
      headers: IP,
    });
    expect(keyed.status).toBe(404);
  });

  it("security 10: POST /webauthn/login/initialize (public API) is rate-limited per IP", async () => {
    const tenant = await createPublicTenant({
      platform: { rateLimits: { webauthn_login: { points: 2, durationSeconds: 60 } } },
    });
    const init = () =>
      publicCall(publicLoginInit.POST, tenant, "POST", "/webauthn/login/initialize", {
        body: {},
        headers: IP,
      });
    expect((await init()).status).toBe(200);
    expect((await init()).status).toBe(200);
    const before = await rows(tenant.id);
    await expectPublicError(await init(), 429);
    expect((await rows(tenant.id)).challenges).toBe(before.challenges);
  });

  it("refused flow requests count against the flow limit, so their audit rows are bounded", async () => {
    const tenant = await createPublicTenant({
      platform: { rateLimits: { flow: { points: 5, durationSeconds: 60 } } },
    });
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await postHref(
        tenant,
        `/login?action=continue_with_login_identifier%40${crypto.randomUUID()}`,
        { input_data: {}, csrf_token: "forged" },
        { headers: IP },
      );
      answers.push(res.res.status);
    }
    expect(answers.filter((status) => status === 429)).toHaveLength(7);
    const db = await executor();
    const [rejected] = await db
      .select({ n: count() })
      .from(auditLogs)
      .where(and(eq(auditLogs.tenantId, tenant.id), like(auditLogs.type, "flow.login.rejected")));
    expect(rejected!.n).toBe(5);
  });
});
