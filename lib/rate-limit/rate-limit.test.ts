import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { RateLimiterRes } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { executor } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { createPublicTenant } from "@/tests/helpers/public-api";
import { RateLimiterDatabase } from "./database-limiter";
import { GROUP_DEFAULTS, limitFor } from "./groups";
import { ipSubject, userSubject } from "./subjects";

const limiter = (points: number, duration = 60) =>
  new RateLimiterDatabase({ points, duration, keyPrefix: `test-${randomUUID()}` });

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (reason: unknown) => {
      expect(reason).toBeInstanceOf(RateLimiterRes);
      return reason as RateLimiterRes;
    },
  );

// The database store runs on both drivers here; the route uses it on Postgres (memory on PGlite).
describe("RateLimiterDatabase (rate_limits table, database clock)", () => {
  it("counts points per key in a window and refuses past the limit", async () => {
    const rl = limiter(2);
    const first = await rl.consume("a");
    expect(first).toMatchObject({ consumedPoints: 1, remainingPoints: 1, isFirstInDuration: true });
    expect(first.msBeforeNext).toBeGreaterThan(58_000);
    expect(first.msBeforeNext).toBeLessThanOrEqual(60_000);
    expect(await rl.consume("a")).toMatchObject({ consumedPoints: 2, remainingPoints: 0 });
    const refused = await refusal(rl.consume("a"));
    expect(refused).toMatchObject({ consumedPoints: 3, remainingPoints: 0 });
    expect(refused.msBeforeNext).toBeGreaterThan(0);
    expect(await rl.consume("b")).toMatchObject({ consumedPoints: 1 });
  });

  it("starts a new window once the stored one has expired by the database clock", async () => {
    const rl = limiter(1);
    await rl.consume("k");
    await refusal(rl.consume("k"));
    const db = await executor();
    await db
      .update(rateLimits)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(rateLimits.key, rl.getKey("k")));
    expect(await rl.get("k")).toBeNull();
    expect(await rl.consume("k")).toMatchObject({ consumedPoints: 1, isFirstInDuration: true });
  });

  it("is atomic under concurrent consumes: exactly `points` of them pass", async () => {
    const rl = limiter(5);
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => rl.consume("hot")));
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(5);
    const consumed = settled.map((s) => (s.status === "fulfilled" ? s.value : s.reason).consumedPoints);
    expect(consumed.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("rejects with the store's error, not a refusal, when the database fails (route() answers 500)", async () => {
    // Postgres refuses NUL in text: a stand-in for any database failure.
    const failure = await limiter(5)
      .consume("bad\u0000key")
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(RateLimiterRes);
  });

  it("supports RLF's get, set, block, reward and delete", async () => {
    const rl = limiter(3);
    await rl.consume("x", 2);
    expect(await rl.get("x")).toMatchObject({ consumedPoints: 2, remainingPoints: 1 });
    await rl.reward("x", 1);
    expect(await rl.get("x")).toMatchObject({ consumedPoints: 1 });
    await rl.block("x", 30);
    const blocked = await refusal(rl.consume("x"));
    expect(blocked.msBeforeNext).toBeLessThanOrEqual(30_000);
    await rl.set("x", 0, 10);
    expect(await rl.consume("x")).toMatchObject({ consumedPoints: 1 });
    expect(await rl.delete("x")).toBe(true);
    expect(await rl.get("x")).toBeNull();
    expect(await rl.delete("x")).toBe(false);
  });
});

describe("rate-limit subjects", () => {
  it("keys IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
    expect(ipSubject("203.0.113.7")).toBe("203.0.113.7");
    expect(ipSubject("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipSubject("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(ipSubject("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(ipSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipSubject("::1")).toBe("0:0:0:0::/64");
    expect(ipSubject(null)).toBe("unknown");
    expect(ipSubject("garbage")).toMatch(/^other:[0-9a-f]{32}$/);
  });

  it("names the user by the session, else user_id, email or username of the body, hashed", () => {
    const id = randomUUID();
    expect(userSubject(id, { email: "a@example.com" })).toBe(userSubject(undefined, { user_id: id }));
    expect(userSubject(undefined, { email: "Alice@Example.com " })).toBe(
      userSubject(undefined, { email: "alice@example.com", username: "x" }),
    );
    expect(userSubject(undefined, { email: "a@example.com" })).toMatch(/^[0-9a-f]{64}$/);
    expect(userSubject(undefined, { username: "a@example.com" })).not.toBe(
      userSubject(undefined, { email: "a@example.com" }),
    );
    expect(userSubject(undefined, { code: "123456" })).toBeUndefined();
    expect(userSubject(undefined, { email: "  " })).toBeUndefined();
    expect(userSubject(undefined, undefined)).toBeUndefined();
  });
});

describe("group limits", () => {
  it("takes the tenant's limit, else the default; unknown groups are not limited", async () => {
    const tenant = await createPublicTenant({
      platform: { rateLimits: { passcode: { points: 3, durationSeconds: 30 } } },
    });
    expect(limitFor(tenant, "passcode")).toEqual({ points: 3, durationSeconds: 30 });
    expect(limitFor(tenant, "password")).toEqual({ points: 10, durationSeconds: 60 });
    expect(limitFor(tenant, "session_validate")).toEqual(GROUP_DEFAULTS.session_validate);
    expect(limitFor(tenant, "nonexistent")).toBeUndefined();
    expect(limitFor(tenant, "constructor")).toBeUndefined();
  });
});
