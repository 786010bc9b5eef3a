import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as login from "@/app/(public-api)/t/[tenantId]/password/login/route";
import * as password from "@/app/(public-api)/t/[tenantId]/password/route";
import { executor } from "@/lib/db";
import { passwords, sessions } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
import { auditEvents } from "../helpers/passkey-security";
import {
  ORIGIN,
  createPublicTenant,
  createUserWithEmail,
  expectPublicError,
  publicCall,
  sessionFor,
  validateSessionCookie,
} from "../helpers/public-api";
import { expectFailureDetails } from "@/tests/helpers/audit";

const GOOD = "correct horse battery";

/** A tenant with passwords on; its rate limit is out of the way unless a test sets one. */
function passwordTenant(settings: UpdateTenantInput["platform"] = {}): Promise<Tenant> {
  return createPublicTenant({
    platform: {
      password: { enabled: true },
      rateLimits: { password: { points: 100_000, durationSeconds: 60 } },
      ...settings,
    },
  });
}

async function stored(userId: string) {
  const db = await executor();
  const [row] = await db.select().from(passwords).where(eq(passwords.userId, userId));
  return row;
}

async function setCounter(userId: string, failedAttempts: number) {
  const db = await executor();
  await db.update(passwords).set({ failedAttempts }).where(eq(passwords.userId, userId));
}

/** Moves the lock's start `seconds` into the past, as if that much time had gone by. */
async function backdateLock(userId: string, seconds: number) {
  const db = await executor();
  await db
    .update(passwords)
    .set({ lockedAt: sql`${passwords.lockedAt} - make_interval(secs => ${seconds})` })
    .where(eq(passwords.userId, userId));
}

async function sessionCount(tenantId: string, userId: string): Promise<number> {
  const db = await executor();
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId)));
  return rows.length;
}

/** The error, and no session issued. */
const expectError = (res: Response, status: number, message?: string | RegExp) =>
  expectPublicError(res, status, message, ["set-cookie", "x-auth-token"]);

const set = (tenant: Tenant, token: string | undefined, body: unknown, method: "POST" | "PUT" = "POST") =>
  publicCall(password[method], tenant, method, "/password", { ...(token ? { token } : {}), body });

const logIn = (tenant: Tenant, body: unknown) =>
  publicCall(login.POST, tenant, "POST", "/password/login", { body });

describe("passwords", () => {
  it("sets (201), replaces (200) and logs in with a password: argon2id, a session with amr pwd", async () => {
    const tenant = await passwordTenant();
    const user = await createUserWithEmail(tenant, "dave@example.com");
    const token = await sessionFor(tenant, user, ["otp"]);

    const created = await set(tenant, token, { password: "first password" });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await created.json()).toEqual({ user_id: user.id });
    expect(created.headers.get("deprecation")).toBeNull();
    expect((await stored(user.id))?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const replaced = await set(tenant, token, { user_id: user.id, password: GOOD }, "PUT");
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(replaced.headers.get("deprecation")).toBe("true");
    expect(replaced.headers.get("link")).toContain(`/t/${tenant.id}/profile>; rel="successor-version"`);

    await expectError(await logIn(tenant, { user_id: user.id, password: "first password" }), 401);
    const res = await logIn(tenant, { user_id: user.id, password: GOOD });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ user_id: user.id });
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/login>; rel="successor-version"`);
    expect(res.headers.get("x-session-lifetime")).toBe("3600");
    const { session } = await validateSessionCookie(tenant, res);
    expect(session).toMatchObject({
      is_valid: true,
      claims: { subject: user.id, amr: ["pwd"], email: { address: "dave@example.com" } },
    });
    expect((await stored(user.id))?.failedAttempts).toBe(0);

    for (const type of ["password.set.succeeded", "password.login.succeeded", "password.login.failed"]) {
      expect((await auditEvents(tenant.id, type)).length, type).toBeGreaterThan(0);
    }
    const [failure] = await auditEvents(tenant.id, "password.login.failed");
    expectFailureDetails(failure?.details, { user_id: user.id, reason: /wrong password/, status: 401 });
  });

  it("sends the session as X-Auth-Token in cross-domain mode", async () => {
    const tenant = await passwordTenant({ session: { crossDomain: true } });
    const user = await createUserWithEmail(tenant);
    await set(tenant, await sessionFor(tenant, user), { password: GOOD });
    const res = await logIn(tenant, { user_id: user.id, password: GOOD });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-auth-token")).toMatch(/^ey/);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("normalises passwords (NFKC), so the same password typed differently matches", async () => {
    const tenant = await passwordTenant();
    const user = await createUserWithEmail(tenant);
    // Full-width letters and digits, and a precomposed é against e + combining acute accent.
    await set(tenant, await sessionFor(tenant, user), { password: "ｐａｓｓｗｏｒｄ１２ caf\u00e9" });
    const res = await logIn(tenant, { user_id: user.id, password: "password12 cafe\u0301" });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("answers 404 in the platform shape while the tenant has passwords off (the default)", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    await expectError(await set(tenant, token, { password: GOOD }), 404, /passwords are not enabled/);
    await expectError(await set(tenant, token, { user_id: user.id, password: GOOD }, "PUT"), 404);
    await expectError(await logIn(tenant, { user_id: user.id, password: GOOD }), 404);
    expect(await stored(user.id)).toBeUndefined();
  });

  it("refuses bad new passwords and another user's id, changing nothing", async () => {
    const tenant = await passwordTenant({ password: { enabled: true, minLength: 10 } });
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    expect((await set(tenant, token, { password: GOOD })).status).toBe(201);
    const before = await stored(user.id);

    const cases: [unknown, number, RegExp][] = [
      [{ password: "123456789" }, 400, /at least 10 characters/],
      // Nine characters, of which two are outside the BMP (UTF-16 length 11): still too short.
      [{ password: "1234567😀😀" }, 400, /at least 10 characters/],
      [{ password: "x".repeat(129) }, 400, /at most 128 characters/],
      [{ password: "" }, 400, /body.password/],
      [{}, 400, /body.password/],
      [{ password: 12345678901 }, 400, /body.password/],
      [{ user_id: "not-a-uuid", password: GOOD }, 400, /body.user_id/],
      [{ user_id: randomUUID(), password: "another good one" }, 403, /not the signed-in user/],
    ];
    for (const [body, status, message] of cases) {
      await expectError(await set(tenant, token, body), status, message);
    }
    // PUT needs user_id (Hanko's body).
    await expectError(await set(tenant, token, { password: GOOD }, "PUT"), 400, /body.user_id/);
    await expectError(await set(tenant, undefined, { password: GOOD }), 401, "Unauthorized");
    await expectError(await set(tenant, "garbage", { password: GOOD }), 401);
    // A cookie-carried change from a foreign origin (CSRF).
    const csrf = await publicCall(password.POST, tenant, "POST", "/password", {
      cookie: token,
      origin: "https://evil.example",
      body: { password: "changed by evil" },
    });
    await expectError(csrf, 403);
    const notJson = await publicCall(password.POST, tenant, "POST", "/password", {
      token,
      body: "password=x",
      headers: { "content-type": "text/plain" },
    });
    await expectError(notJson, 415);

    expect(await stored(user.id)).toEqual(before);
    expect((await logIn(tenant, { user_id: user.id, password: GOOD })).status).toBe(200);
    expect((await auditEvents(tenant.id, "password.set.failed")).length).toBe(4);
    const ok = await publicCall(password.POST, tenant, "POST", "/password", {
      cookie: token,
      origin: ORIGIN,
      body: { password: "a new password" },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses a wrong password, an unknown user and a user without a password with the same 401", async () => {
    const tenant = await passwordTenant();
    const user = await createUserWithEmail(tenant);
    await set(tenant, await sessionFor(tenant, user), { password: GOOD });
    const withoutPassword = await createUserWithEmail(tenant);
    const sessionsBefore = await sessionCount(tenant.id, user.id);

    for (const body of [
      { user_id: user.id, password: "wrong password" },
      { user_id: randomUUID(), password: GOOD },
      { user_id: withoutPassword.id, password: GOOD },
    ]) {
      const res = await logIn(tenant, body);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
    }
    expect((await stored(user.id))?.failedAttempts).toBe(1);
    expect(await stored(withoutPassword.id)).toBeUndefined();
    expect(await sessionCount(tenant.id, user.id)).toBe(sessionsBefore);

    const reasons = (await auditEvents(tenant.id, "password.login.failed")).map((e) => e.details.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        "wrong password (1 consecutive failures)",
        "unknown user",
        "the user has no password",
      ]),
    );

    // Bad bodies: 400 before anything is looked up or counted.
    for (const [body, message] of [
      [{ user_id: user.id }, /body.password/],
      [{ password: GOOD }, /body.user_id/],
      [{ user_id: "42", password: GOOD }, /body.user_id/],
      [{ user_id: user.id, password: "x".repeat(129) }, /at most 128 characters/],
    ] as const) {
      await expectError(await logIn(tenant, body), 400, message);
    }
    expect((await stored(user.id))?.failedAttempts).toBe(1);
    // Another tenant's user is unknown here.
    const other = await passwordTenant();
    await expectError(await logIn(other, { user_id: user.id, password: GOOD }), 401);
  });

  it("security 7: locks the password for a minute after 10 consecutive failures, longer after each run, never for good", async () => {
    const tenant = await passwordTenant();
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    await set(tenant, token, { password: GOOD });

    // The 10th attempt is still checked: a correct one succeeds and starts the count again.
    await setCounter(user.id, 9);
    expect((await logIn(tenant, { user_id: user.id, password: GOOD })).status).toBe(200);
    expect((await stored(user.id))?.failedAttempts).toBe(0);

    // A wrong 10th attempt locks, for a minute.
    await setCounter(user.id, 9);
    await expectError(await logIn(tenant, { user_id: user.id, password: "wrong password" }), 401);
    expect(await stored(user.id)).toMatchObject({ failedAttempts: 10, lockedAt: expect.any(Date) });
    const [locked] = await auditEvents(tenant.id, "password.locked");
    expect(locked?.details).toMatchObject({ failed_attempts: 10, seconds: 60 });

    // Locked: even the right password is refused (with Retry-After), and nothing more is counted.
    const sessionsBefore = await sessionCount(tenant.id, user.id);
    const refused = await logIn(tenant, { user_id: user.id, password: GOOD });
    await expectError(refused, 403, /locked for \d+ seconds after 10 failed attempts/);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    await expectError(await logIn(tenant, { user_id: user.id, password: "wrong password" }), 403);
    expect((await stored(user.id))?.failedAttempts).toBe(10);
    expect(await sessionCount(tenant.id, user.id)).toBe(sessionsBefore);

    // Once the minute is over the right password works again: the lock is temporary.
    await backdateLock(user.id, 61);
    expect((await logIn(tenant, { user_id: user.id, password: GOOD })).status).toBe(200);
    expect(await stored(user.id)).toMatchObject({ failedAttempts: 0, lockedAt: null });

    // Runs without a success in between lock longer each time: 20 failures, two minutes.
    await setCounter(user.id, 19);
    await expectError(await logIn(tenant, { user_id: user.id, password: "wrong password" }), 401);
    await backdateLock(user.id, 61);
    await expectError(await logIn(tenant, { user_id: user.id, password: GOOD }), 403);
    await backdateLock(user.id, 121);
    expect((await logIn(tenant, { user_id: user.id, password: GOOD })).status).toBe(200);

    // A counter at the end of a run without the lock set yet (e.g. written by an older instance) locks too.
    const other = await createUserWithEmail(tenant);
    await set(tenant, await sessionFor(tenant, other), { password: GOOD });
    await setCounter(other.id, 10);
    await expectError(await logIn(tenant, { user_id: other.id, password: GOOD }), 403);
    expect((await stored(other.id))?.lockedAt).toBeInstanceOf(Date);

    // Setting a new password (with a session from another login) ends the lock at once.
    await setCounter(user.id, 9);
    await expectError(await logIn(tenant, { user_id: user.id, password: "wrong password" }), 401);
    expect((await set(tenant, token, { password: "a brand new one" })).status).toBe(200);
    expect(await stored(user.id)).toMatchObject({ failedAttempts: 0, lockedAt: null });
    expect((await logIn(tenant, { user_id: user.id, password: "a brand new one" })).status).toBe(200);
    const [event] = await auditEvents(tenant.id, "password.set.succeeded");
    expect(event?.details).toMatchObject({ created: false, unlocked: true });
  });

  it("counts attempts before checking them: parallel guesses cannot overtake the lock", async () => {
    const tenant = await passwordTenant();
    const user = await createUserWithEmail(tenant);
    await set(tenant, await sessionFor(tenant, user), { password: GOOD });
    await setCounter(user.id, 7);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => logIn(tenant, { user_id: user.id, password: `wrong ${i} guess` })),
    );
    const statuses = results.map((res) => res.status).sort();
    // Three guesses were checked (8, 9, 10); the others found the run complete.
    expect(statuses).toEqual([401, 401, 401, 403, 403, 403]);
    expect(await stored(user.id)).toMatchObject({ failedAttempts: 10, lockedAt: expect.any(Date) });
  });

  it("keeps POST /password on API version 3 and removes the deprecated PUT and login", async () => {
    const tenant = await passwordTenant({ apiVersion: 3 });
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    expect((await set(tenant, token, { password: GOOD })).status).toBe(201);
    await expectError(await set(tenant, token, { user_id: user.id, password: GOOD }, "PUT"), 404);
    await expectError(await logIn(tenant, { user_id: user.id, password: GOOD }), 404);
  });

  it("counts logins against the tenant's password rate limit (429 with Retry-After)", async () => {
    const tenant = await passwordTenant({ rateLimits: { password: { points: 2, durationSeconds: 60 } } });
    const user = await createUserWithEmail(tenant);
    const body = { user_id: user.id, password: "wrong password" };
    expect((await logIn(tenant, body)).status).toBe(401);
    expect((await logIn(tenant, body)).status).toBe(401);
    const limited = await logIn(tenant, body);
    await expectError(limited, 429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
