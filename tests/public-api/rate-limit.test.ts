import { randomUUID } from "node:crypto";
import { like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as validate from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import { listAuditEvents } from "@/lib/audit";
import { PUBLIC_CONTRACTS } from "@/lib/contracts/public";
import { tenantParams } from "@/lib/contracts/public/common";
import { executor } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { createSurfaceDocument } from "@/lib/openapi";
import { defineContract, route } from "@/lib/http";
import { GROUP_DEFAULTS, limiterStore } from "@/lib/rate-limit";
import { updateTenant, type Tenant } from "@/lib/tenants";
import {
  ORIGIN,
  createPublicTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
} from "../helpers/public-api";

const GROUP = "test_group";

const base = {
  surface: "public",
  loadsTenant: true,
  cors: "tenant-credentials",
  params: tenantParams,
  path: "/t/{tenantId}/limited",
  summary: "limited",
  responses: {},
} as const;

/** A test-only endpoint counting against GROUP; the body may name the user. */
const limited = route(
  defineContract({
    ...base,
    method: "POST",
    operationId: "limitedTest",
    auth: { kind: "none" },
    rateLimit: GROUP,
    body: z.object({
      email: z.string().optional(),
      user_id: z.string().optional(),
      code: z.string().optional(),
    }),
  }),
  async () => Response.json({ ok: true }),
);

/** The same group behind session auth: the session's user is the per-user subject. */
const limitedSession = route(
  defineContract({
    ...base,
    method: "GET",
    operationId: "limitedSessionTest",
    auth: { kind: "session" },
    rateLimit: GROUP,
  }),
  async ({ session }) => Response.json({ user: session.user.id }),
);

/** A group no tenant and no default sets: not limited. */
const unlimited = route(
  defineContract({
    ...base,
    method: "GET",
    operationId: "unlimitedTest",
    auth: { kind: "none" },
    rateLimit: "nobody_sets_this",
  }),
  async () => Response.json({ ok: true }),
);

let ipCounter = 0;
/**
 * A fresh client IP per call site, so tests never share per-IP counters. It stands for the socket address
 * Sesame's server (scripts/server.mjs) appends as the last X-Forwarded-For entry; route handlers called
 * directly, as here, see only the header.
 */
const newIp = () => `198.51.${Math.floor(++ipCounter / 250) % 250}.${ipCounter % 250}`;

async function tenantWith(points: number, durationSeconds = 60): Promise<Tenant> {
  return createPublicTenant({ platform: { rateLimits: { [GROUP]: { points, durationSeconds } } } });
}

function post(tenant: Tenant, ip: string, body: Record<string, unknown> = {}, origin?: string) {
  return publicCall(limited, tenant, "POST", "/limited", {
    body,
    headers: { "x-forwarded-for": ip },
    ...(origin ? { origin } : {}),
  });
}

async function statuses(responses: Promise<Response>[]): Promise<number[]> {
  return (await Promise.all(responses)).map((res) => res.status);
}

async function expect429(res: Response, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(await res.json()).toEqual({ code: 429, message: "Too Many Requests" });
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
}

describe("rate limits (route(), per tenant, per IP and per user)", () => {
  it("limits per IP: the limit's worth of requests pass, the next is 429 in the platform shape", async () => {
    const tenant = await tenantWith(3);
    const ip = newIp();
    const passed: Response[] = [];
    for (let i = 0; i < 3; i++) passed.push(await post(tenant, ip));
    expect(passed.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(passed.map((res) => res.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(passed[0]!.headers.get("x-ratelimit-limit")).toBe("3");
    const reset = Number(passed[0]!.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThan(55);
    expect(reset).toBeLessThanOrEqual(60);

    const refused = await post(tenant, ip, {}, ORIGIN);
    await expect429(refused, 60);
    expect(refused.headers.get("x-request-id")).toBeTruthy();
    // A browser on the tenant's origin can read why and how long to wait.
    const exposed = refused.headers.get("access-control-expose-headers")!;
    for (const header of ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
      expect(exposed).toContain(header);
    }
    // Another IP is not affected; an IPv4-mapped IPv6 form of the same IP is.
    expect((await post(tenant, newIp())).status).toBe(200);
    expect((await post(tenant, `::ffff:${ip}`)).status).toBe(429);
  });

  it("limits per user named in the body (email, user_id), whatever the IP", async () => {
    const tenant = await tenantWith(2);
    const email = `victim-${randomUUID()}@example.com`;
    expect(
      await statuses([
        post(tenant, newIp(), { email }),
        post(tenant, newIp(), { email: email.toUpperCase() }),
      ]),
    ).toEqual([200, 200]);
    await expect429(await post(tenant, newIp(), { email }), 60);
    // Another account from the same kind of fresh IP still passes.
    expect((await post(tenant, newIp(), { email: `other-${randomUUID()}@example.com` })).status).toBe(200);

    const userId = randomUUID();
    expect(
      await statuses([
        post(tenant, newIp(), { user_id: userId }),
        post(tenant, newIp(), { user_id: userId }),
      ]),
    ).toEqual([200, 200]);
    expect((await post(tenant, newIp(), { user_id: userId })).status).toBe(429);
    // A body without an identifier is limited per IP only.
    expect((await post(tenant, newIp(), { code: "123456" })).status).toBe(200);
  });

  it("limits per session user on session-authenticated routes, across IPs", async () => {
    const tenant = await tenantWith(2);
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    const get = (ip: string, bearer = token) =>
      publicCall(limitedSession, tenant, "GET", "/limited", {
        token: bearer,
        headers: { "x-forwarded-for": ip },
      });
    expect(await statuses([get(newIp()), get(newIp())])).toEqual([200, 200]);
    await expect429(await get(newIp()), 60);
    // The same user named by user_id on the unauthenticated endpoint shares the counter.
    expect((await post(tenant, newIp(), { user_id: user.id })).status).toBe(429);
    const other = await sessionFor(tenant, await createUserWithEmail(tenant));
    expect((await get(newIp(), other)).status).toBe(200);
    // An unauthenticated request is refused (401) before it is counted.
    const anonymous = await publicCall(limitedSession, tenant, "GET", "/limited", {
      headers: { "x-forwarded-for": newIp() },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("takes each tenant's own limit; a changed limit applies to the next request", async () => {
    const strict = await tenantWith(1);
    const lenient = await tenantWith(5);
    const ip = newIp();
    expect(await statuses([post(strict, ip), post(lenient, ip)])).toEqual([200, 200]);
    expect((await post(strict, ip)).status).toBe(429);
    // Counters are per tenant: the same IP still has four left at the lenient tenant.
    const left = await post(lenient, ip);
    expect(left.status).toBe(200);
    expect(left.headers.get("x-ratelimit-remaining")).toBe("3");

    const raised = await updateTenant(strict.id, {
      platform: { rateLimits: { [GROUP]: { points: 10, durationSeconds: 60 } } },
    });
    const after = await post(raised, newIp());
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-limit")).toBe("10");
  });

  it("counts concurrent requests exactly", async () => {
    const tenant = await tenantWith(4);
    const ip = newIp();
    const results = await statuses(Array.from({ length: 12 }, () => post(tenant, ip)));
    expect(results.filter((status) => status === 200)).toHaveLength(4);
    expect(results.filter((status) => status === 429)).toHaveLength(8);
  });

  it("lets requests through again once the window has passed", async () => {
    const tenant = await tenantWith(1, 1);
    const ip = newIp();
    expect((await post(tenant, ip)).status).toBe(200);
    const refused = await post(tenant, ip);
    await expect429(refused, 1);
    expect(refused.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await post(tenant, ip)).status).toBe(200);
  });

  it("does not count requests refused by validation", async () => {
    const tenant = await tenantWith(1);
    const ip = newIp();
    const invalid = await post(tenant, ip, { email: 42 });
    expect(invalid.status).toBe(400);
    expect((await post(tenant, ip)).status).toBe(200);
  });

  it("records the first refusal of each window in the audit log", async () => {
    const tenant = await tenantWith(1);
    const ip = newIp();
    await post(tenant, ip, { email: "audited@example.com" });
    await post(tenant, ip, { email: "audited@example.com" });
    await post(tenant, ip, { email: "audited@example.com" });
    const events = (await listAuditEvents(tenant.id, { limit: 20 })).items.filter(
      (event) => event.type === "rate_limit.exceeded",
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      ip,
      details: { group: GROUP, subjects: ["ip", "user"], limit: 1, window: 60 },
    });
    expect(JSON.stringify(events[0])).not.toContain("audited@example.com");
  });

  it("leaves groups without a limit alone", async () => {
    const tenant = await createPublicTenant();
    const ip = newIp();
    for (let i = 0; i < 3; i++) {
      const res = await publicCall(unlimited, tenant, "GET", "/limited", {
        headers: { "x-forwarded-for": ip },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });

  it("keeps counters in the database on Postgres (shared by instances), in memory on PGlite", async () => {
    const tenant = await tenantWith(2);
    const ip = newIp();
    await post(tenant, ip);
    await post(tenant, ip);
    const store = await limiterStore();
    expect(store).toBe(process.env.DATABASE_URL ? "database" : "memory");
    const db = await executor();
    const rows = await db
      .select({ key: rateLimits.key, points: rateLimits.points })
      .from(rateLimits)
      .where(like(rateLimits.key, `rl:${tenant.id}:%`));
    if (store === "memory") {
      expect(rows).toEqual([]);
      return;
    }
    expect(rows).toEqual([{ key: `rl:${tenant.id}:${GROUP}:ip:${ip}`, points: 2 }]);
    // Another instance has no memory of this one: drop every limiter this process holds.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("sesame.rateLimiters")];
    expect((await post(tenant, ip)).status).toBe(429);
    // The window ends by the database clock.
    await db
      .update(rateLimits)
      .set({ expiresAt: sql`now() - interval '1 millisecond'` })
      .where(like(rateLimits.key, `rl:${tenant.id}:%`));
    expect((await post(tenant, ip)).status).toBe(200);
  });
});

describe("rate-limit groups of the public contracts", () => {
  it("every group a public contract names has a default limit, so none is silently unlimited", () => {
    const groups = PUBLIC_CONTRACTS.flatMap((contract) => (contract.rateLimit ? [contract.rateLimit] : []));
    expect(groups).toContain("session_validate");
    for (const group of groups) expect(Object.keys(GROUP_DEFAULTS), group).toContain(group);
  });
});

describe("POST /sessions/validate (group session_validate)", () => {
  it("is limited per IP by the tenant's session_validate limit, 600 a minute by default", async () => {
    expect(GROUP_DEFAULTS.session_validate).toEqual({ points: 600, durationSeconds: 60 });
    const tenant = await createPublicTenant({
      platform: { rateLimits: { session_validate: { points: 2, durationSeconds: 60 } } },
    });
    const ip = newIp();
    const check = () =>
      publicCall(validate.POST, tenant, "POST", "/sessions/validate", {
        body: { session_token: "not-a-jwt" },
        headers: { "x-forwarded-for": ip },
      });
    expect(await statuses([check(), check()])).toEqual([200, 200]);
    await expect429(await check(), 60);
    // GET (the SDK's poll with the browser's own session) is not limited.
    const get = await publicCall(validate.GET, tenant, "GET", "/sessions/validate", {
      headers: { "x-forwarded-for": ip },
    });
    expect(get.status).toBe(200);
  });
});

describe("OpenAPI for rate-limited endpoints", () => {
  it("documents the 429 with Retry-After on every rate-limited public endpoint", () => {
    const document = createSurfaceDocument("public")!;
    const operation = document.paths!["/t/{tenantId}/sessions/validate"]!.post!;
    const tooMany = JSON.stringify(operation.responses!["429"]);
    expect(tooMany).toContain("Retry-After");
    expect(tooMany).toContain("#/components/schemas/Error");
  });
});
