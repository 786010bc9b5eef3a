import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as token from "@/app/(public-api)/t/[tenantId]/token/route";
import { sha256Hex } from "@/lib/crypto";
import { executor } from "@/lib/db";
import { oneTimeTokens, sessions } from "@/lib/db/schema";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { auditEvents } from "../helpers/passkey-security";
import {
  createPublicTenant,
  createUserWithEmail,
  expectPublicError,
  publicCall,
  validateSessionCookie,
} from "../helpers/public-api";
import { bindingCookie, bindingOf } from "../helpers/token-binding";
import { expectFailureDetails } from "@/tests/helpers/audit";

/** POST /token from the browser that started the sign-in (its binding cookie), unless `headers` say else. */
const exchange = (tenant: Tenant, body: unknown, headers?: Record<string, string>) =>
  publicCall(token.POST, tenant, "POST", "/token", {
    body,
    headers: { cookie: bindingCookie(), ...headers },
  });

/** The error, and no session cookie. */
const expectError = (res: Response, status: number, message?: string | RegExp) =>
  expectPublicError(res, status, message, ["set-cookie"]);

async function tokenRows(tenantId: string) {
  const db = await executor();
  return db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tenantId, tenantId));
}

async function sessionCount(tenantId: string) {
  const db = await executor();
  return (await db.select().from(sessions).where(eq(sessions.tenantId, tenantId))).length;
}

describe("POST /token", () => {
  it("exchanges a one-time token for a session with the token's amr, once", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant, "erin@example.com");
    const value = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the SHA-256 is stored, with a 60 s lifetime by default.
    const [row] = await tokenRows(tenant.id);
    expect(row).toMatchObject({ tokenHash: sha256Hex(value), userId: user.id, amr: ["ext:google"] });
    const lifetime = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 1000;
    expect(Math.round(lifetime)).toBe(60);

    const res = await exchange(tenant, { value });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ user_id: user.id });
    expect(res.headers.get("x-session-lifetime")).toBe("3600");
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/token_exchange>; rel="successor-version"`);
    const { session } = await validateSessionCookie(tenant, res);
    expect(session).toMatchObject({
      is_valid: true,
      claims: { subject: user.id, amr: ["ext:google"], email: { address: "erin@example.com" } },
    });
    expect(await tokenRows(tenant.id)).toEqual([]);

    // Used: gone.
    const sessionsBefore = await sessionCount(tenant.id);
    await expectError(await exchange(tenant, { value }), 404, "token not found");
    expect(await sessionCount(tenant.id)).toBe(sessionsBefore);

    const [success] = await auditEvents(tenant.id, "token.exchange.succeeded");
    expect(success).toMatchObject({ actor: user.id, details: { amr: ["ext:google"] } });
    const [failure] = await auditEvents(tenant.id, "token.exchange.failed");
    expectFailureDetails(failure?.details, { reason: "token not found", status: 404 });
  });

  it("answers 422 for an expired token and starts no session", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const value = await mintOneTimeToken(tenant, user.id, {
      amr: ["ext:github"],
      ttlSeconds: 5,
      binding: bindingOf(),
    });
    const db = await executor();
    await db
      .update(oneTimeTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(oneTimeTokens.tenantId, tenant.id));
    await expectError(await exchange(tenant, { value }), 422, "token has expired");
    await expectError(await exchange(tenant, { value }), 422, "token has expired");
    expect(await sessionCount(tenant.id)).toBe(0);
  });

  it("does not exchange another tenant's token, which stays usable at its own tenant", async () => {
    const tenant = await createPublicTenant();
    const other = await createPublicTenant();
    const user = await createUserWithEmail(other);
    const value = await mintOneTimeToken(other, user.id, { amr: ["ext:google"], binding: bindingOf() });
    await expectError(await exchange(tenant, { value }), 404, "token not found");
    expect(await sessionCount(tenant.id)).toBe(0);
    expect((await exchange(other, { value })).status).toBe(200);
  });

  it("lets exactly one of two concurrent exchanges win", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const value = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    const results = await Promise.all([exchange(tenant, { value }), exchange(tenant, { value })]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 404]);
    expect(await sessionCount(tenant.id)).toBe(1);
  });

  it("refuses bad bodies with 400 or 415 and leaves the token usable", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const value = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    for (const body of [{}, { value: "" }, { value: 42 }, { value: "x".repeat(257) }, "[]"]) {
      await expectError(await exchange(tenant, body), 400, /body/);
    }
    await expectError(await exchange(tenant, "{"), 400);
    await expectError(await exchange(tenant, `{"value":"${value}"}`, { "content-type": "text/plain" }), 415);
    await expectError(await exchange(tenant, { value: `${value}x` }), 404);
    expect(await tokenRows(tenant.id)).toHaveLength(1);
    expect(await sessionCount(tenant.id)).toBe(0);
    expect((await exchange(tenant, { value })).status).toBe(200);
  });

  it("goes with the user: a deleted user's tokens are gone", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const value = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    const { users } = await import("@/lib/db/schema");
    const db = await executor();
    await db.delete(users).where(and(eq(users.tenantId, tenant.id), eq(users.id, user.id)));
    await expectError(await exchange(tenant, { value }), 404);
  });

  it("refuses lifetimes outside 1–600 seconds when minting", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    for (const ttlSeconds of [0, 601, 1.5]) {
      await expect(
        mintOneTimeToken(tenant, user.id, { amr: ["ext:x"], ttlSeconds, binding: bindingOf() }),
      ).rejects.toThrow(RangeError);
    }
    expect(await tokenRows(tenant.id)).toEqual([]);
  });

  it("is gone (404) for a tenant on API version 3", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const value = await mintOneTimeToken(tenant, user.id, { amr: ["ext:google"], binding: bindingOf() });
    const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3 } });
    await expectError(await exchange(v3, { value }), 404);
    expect(await tokenRows(tenant.id)).toHaveLength(1);
  });
});
