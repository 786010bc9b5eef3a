import { decodeJwt } from "jose";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import * as emailsRoute from "@/app/(public-api)/t/[tenantId]/emails/route";
import * as emailRoute from "@/app/(public-api)/t/[tenantId]/emails/[emailId]/route";
import * as usersRoute from "@/app/(public-api)/t/[tenantId]/users/route";
import { listAuditEvents } from "@/lib/audit";
import { sha256Hex } from "@/lib/crypto";
import { executor } from "@/lib/db";
import { emails, mailOutbox, passcodes } from "@/lib/db/schema";
import { listOutbox } from "@/lib/mail";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { upsertExternalUser, type User } from "@/lib/users";
import {
  ORIGIN,
  createPasscodeTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  useDevOutbox,
  type PublicCall,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";
import { expectFailureDetails } from "@/tests/helpers/audit";

useDevOutbox();

const initialize = (tenant: Tenant, body: unknown, options: PublicCall = {}) =>
  publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", { body, ...options });
const finalize = (tenant: Tenant, body: unknown, options: PublicCall = {}) =>
  publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", { body, ...options });

/** Asks for a code for the user's primary address and reads it from the outbox. */
async function requestCode(tenant: Tenant, user: User, address: string, emailId?: string, token?: string) {
  const res = await initialize(
    tenant,
    { user_id: user.id, ...(emailId ? { email_id: emailId } : {}) },
    token ? { token } : {},
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as { id: string; ttl: number; created_at: string };
  return { ...body, code: await outboxCode(tenant.id, address) };
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function passcodeRow(id: string) {
  const db = await executor();
  const [row] = await db.select().from(passcodes).where(eq(passcodes.id, id));
  return row!;
}

async function countRows(tenantId: string) {
  const db = await executor();
  const [codes] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(passcodes)
    .where(eq(passcodes.tenantId, tenantId));
  const [mails] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(eq(mailOutbox.tenantId, tenantId));
  return { codes: Number(codes!.n), mails: Number(mails!.n) };
}

async function auditTypes(tenantId: string) {
  return (await listAuditEvents(tenantId, { limit: 200 })).items.map((event) => event.type);
}

describe("passcode login", () => {
  it("mails a code, logs in with it (amr otp, Hanko's PasscodeReturn), once", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "pat@example.com");
    const res = await initialize(tenant, { user_id: user.id });
    expect(res.status).toBe(200);
    const info = await res.json();
    expect(info).toEqual({ id: expect.any(String), ttl: 300, created_at: expect.any(String) });
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/login>; rel="successor-version"`);

    const [mail] = await listOutbox(tenant.id, { to: "pat@example.com" });
    expect(mail!.subject).toBe(`Your ${tenant.name} login code`);
    expect(mail!.text).toMatch(/^Your login code for .+ is \d{6}\n/);
    expect(mail!.text).toContain("valid for 5 minutes");
    const code = await outboxCode(tenant.id, "pat@example.com");

    // Stored as a keyed digest: neither the code nor its plain SHA-256.
    const row = await passcodeRow(info.id);
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).not.toBe(sha256Hex(code));
    expect(row.purpose).toBe("login");

    const ok = await finalize(tenant, { id: info.id, code });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(info);
    expect(ok.headers.get("x-session-lifetime")).toBe("3600");
    expect(ok.headers.get("deprecation")).toBe("true");
    const cookie = ok.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^hanko=[\w-]+\.[\w-]+\.[\w-]+; Path=\/t\//);
    const claims = decodeJwt(cookie.slice("hanko=".length, cookie.indexOf(";")));
    expect(claims).toMatchObject({
      sub: user.id,
      amr: ["otp"],
      email: { address: "pat@example.com", is_verified: true },
    });

    const again = await finalize(tenant, { id: info.id, code });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ code: 401, message: "Unauthorized: passcode already used" });

    const types = await auditTypes(tenant.id);
    expect(types).toEqual(
      expect.arrayContaining([
        "passcode.login.initialize.succeeded",
        "passcode.login.finalize.succeeded",
        "session.created",
        "passcode.login.finalize.failed",
      ]),
    );
  });

  it("lets exactly one of two concurrent finalizes with the right code in", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "race@example.com");
    const { id, code } = await requestCode(tenant, user, "race@example.com");
    const results = await Promise.all([finalize(tenant, { id, code }), finalize(tenant, { id, code })]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 401]);
  });

  it("refuses after 3 wrong codes (410), also the right one, and a new code until the last expires (429)", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "guess@example.com");
    const { id, code } = await requestCode(tenant, user, "guess@example.com");
    const first = await finalize(tenant, { id, code: wrong(code) });
    expect(first.status).toBe(401);
    expect(await first.json()).toEqual({
      code: 401,
      message: "Unauthorized: passcode invalid (2 attempts left)",
    });
    expect((await finalize(tenant, { id, code: wrong(code) })).status).toBe(401);
    const third = await finalize(tenant, { id, code: wrong(code) });
    expect(third.status).toBe(410);
    expect(await third.json()).toEqual({ code: 410, message: "Gone: max attempts reached" });
    const right = await finalize(tenant, { id, code });
    expect(right.status).toBe(410);
    expect((await passcodeRow(id)).failedAttempts).toBe(3);

    const before = await countRows(tenant.id);
    const refused = await initialize(tenant, { user_id: user.id });
    expect(refused.status).toBe(429);
    const wait = (await refused.json()).message.match(
      /^Too Many Requests: max attempts reached for this address: ask for a new code in (\d+) seconds$/,
    )?.[1];
    expect(wait).toBeDefined();
    expect(refused.headers.get("retry-after")).toBe(wait);
    expect(await countRows(tenant.id)).toEqual(before);

    // Once the last code has expired, a new one starts with a clean count.
    const db = await executor();
    await db
      .update(passcodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passcodes.id, id));
    const fresh = await requestCode(tenant, user, "guess@example.com");
    expect((await passcodeRow(fresh.id)).failedAttempts).toBe(0);
    expect((await finalize(tenant, { id: fresh.id, code: fresh.code })).status).toBe(200);
  });

  it("carries failed attempts into a new code, which replaces the old one", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "carry@example.com");
    const old = await requestCode(tenant, user, "carry@example.com");
    expect((await finalize(tenant, { id: old.id, code: wrong(old.code) })).status).toBe(401);
    expect((await finalize(tenant, { id: old.id, code: wrong(old.code) })).status).toBe(401);

    const next = await requestCode(tenant, user, "carry@example.com");
    expect((await passcodeRow(next.id)).failedAttempts).toBe(2);
    const replaced = await finalize(tenant, { id: old.id, code: old.code });
    expect(replaced.status).toBe(408);
    expect((await replaced.json()).message).toBe(
      "Request Timeout: passcode expired or replaced by a newer one: ask for a new code",
    );
    const last = await finalize(tenant, { id: next.id, code: wrong(next.code) });
    expect(last.status).toBe(410);
    expect((await finalize(tenant, { id: next.id, code: next.code })).status).toBe(410);
    expect((await initialize(tenant, { user_id: user.id })).status).toBe(429);
  });

  it("keeps the count when the address is deleted and added again", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "owner@example.com");
    const token = await sessionFor(tenant, user);
    const added = await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      token,
      body: { address: "second@example.com" },
    });
    const { id: emailId, passcode } = await added.json();
    const code = await outboxCode(tenant.id, "second@example.com");
    for (let i = 0; i < 3; i++) {
      await finalize(tenant, { id: passcode.id, code: wrong(code) }, { token });
    }
    const removed = await publicCall(
      emailRoute.DELETE,
      tenant,
      "DELETE",
      `/emails/${emailId}`,
      { token },
      {
        emailId,
      },
    );
    expect(removed.status).toBe(204);
    const again = await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      token,
      body: { address: "second@example.com" },
    });
    expect(again.status).toBe(200);
    const readded = await again.json();
    expect(readded.passcode).toBeUndefined();
    const refused = await initialize(tenant, { user_id: user.id, email_id: readded.id }, { token });
    expect(refused.status).toBe(429);
  });

  it("expires codes after the tenant's TTL (408) without counting an attempt", async () => {
    const tenant = await createPasscodeTenant({ passcodeTtlSeconds: 120 });
    const user = await createUserWithEmail(tenant, "late@example.com");
    const { id, code, ttl } = await requestCode(tenant, user, "late@example.com");
    expect(ttl).toBe(120);
    const row = await passcodeRow(id);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(120_000);
    expect((await listOutbox(tenant.id))[0]!.text).toContain("valid for 2 minutes");

    const db = await executor();
    await db
      .update(passcodes)
      .set({ createdAt: sql`now() - interval '121 seconds'`, expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passcodes.id, id));
    const late = await finalize(tenant, { id, code });
    expect(late.status).toBe(408);
    expect((await late.json()).code).toBe(408);
    expect((await passcodeRow(id)).failedAttempts).toBe(0);
    expect((await passcodeRow(id)).usedAt).toBeNull();
  });

  it("answers bad input with 400 in the platform shape and changes nothing", async () => {
    const tenant = await createPasscodeTenant();
    const other = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "input@example.com");
    const stranger = await createUserWithEmail(tenant, "stranger@example.com");
    const foreign = await createUserWithEmail(other, "foreign@example.com");
    const db = await executor();
    const [strangerEmail] = await db.select().from(emails).where(eq(emails.userId, stranger.id));
    const [foreignEmail] = await db.select().from(emails).where(eq(emails.userId, foreign.id));
    const noEmail = await upsertExternalUser(tenant.id, {
      externalId: "no-email",
      username: "",
      displayName: "",
      icon: null,
    });
    const before = await countRows(tenant.id);

    const cases: [unknown, string][] = [
      [{}, "Bad Request: body.user_id: "],
      [{ user_id: "nope" }, "Bad Request: body.user_id: must be a UUID"],
      [{ user_id: user.id, email_id: "nope" }, "Bad Request: body.email_id: must be a UUID"],
      [{ user_id: foreign.id }, "Bad Request: user not found"],
      [{ user_id: crypto.randomUUID() }, "Bad Request: user not found"],
      [
        { user_id: user.id, email_id: strangerEmail!.id },
        "Bad Request: the specified email_id is not available",
      ],
      [
        { user_id: user.id, email_id: foreignEmail!.id },
        "Bad Request: the specified email_id is not available",
      ],
      [{ user_id: noEmail.id }, "Bad Request: the user has no primary email: send an email_id"],
    ];
    for (const [body, message] of cases) {
      const res = await initialize(tenant, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error.code).toBe(400);
      expect(error.message.startsWith(message), error.message).toBe(true);
    }
    const notJson = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
      body: "user_id=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(notJson.status).toBe(415);

    const { id, code } = await requestCode(tenant, user, "input@example.com");
    const afterCode = await countRows(tenant.id);
    const foreignCode = await requestCode(other, foreign, "foreign@example.com");
    const finalizeCases: [unknown, number, string][] = [
      [{}, 400, "Bad Request: body.id: "],
      [{ id, code: "12345" }, 400, "Bad Request: body.code: must be the 6-digit code"],
      [{ id, code: "abcdef" }, 400, "Bad Request: body.code: must be the 6-digit code"],
      [{ id, code: 123456 }, 400, "Bad Request: body.code: "],
      [{ id: "nope", code }, 400, "Bad Request: body.id: must be a UUID"],
      [{ id: crypto.randomUUID(), code }, 401, "Unauthorized: passcode not found"],
      [{ id: foreignCode.id, code: foreignCode.code }, 401, "Unauthorized: passcode not found"],
    ];
    for (const [body, status, message] of finalizeCases) {
      const res = await finalize(tenant, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      const error = await res.json();
      expect(error.code).toBe(status);
      expect(error.message.startsWith(message), error.message).toBe(true);
    }
    // None of them counted as an attempt or created anything.
    expect((await passcodeRow(id)).failedAttempts).toBe(0);
    expect(await countRows(tenant.id)).toEqual(afterCode);
    expect(afterCode).toEqual({ codes: before.codes + 1, mails: before.mails + 1 });
    expect((await finalize(tenant, { id, code })).status).toBe(200);
    const failures = (await listAuditEvents(tenant.id, { limit: 200 })).items.filter(
      (event) => event.type === "passcode.login.initialize.failed",
    );
    expect(failures.length).toBeGreaterThanOrEqual(4);
    expectFailureDetails(failures[0]!.details, { status: 400 });
  });

  it("refuses a session of another user (403) at initialize and finalize", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "me@example.com");
    const intruder = await sessionFor(tenant, await createUserWithEmail(tenant));
    const res = await initialize(tenant, { user_id: user.id }, { token: intruder });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 403,
      message: "Forbidden: the session belongs to another user",
    });
    const { id, code } = await requestCode(tenant, user, "me@example.com");
    const fin = await finalize(tenant, { id, code }, { token: intruder });
    expect(fin.status).toBe(403);
    expect((await passcodeRow(id)).usedAt).toBeNull();
    expect((await finalize(tenant, { id, code })).status).toBe(200);
  });

  it("verifies a sign-up's address: the code is a verification code and logs the user in", async () => {
    const tenant = await createPasscodeTenant();
    const signUp = await publicCall(usersRoute.POST, tenant, "POST", "/users", {
      body: { email: "New@Example.com" },
    });
    const { user_id, email_id } = await signUp.json();
    const res = await initialize(tenant, { user_id, email_id });
    const { id } = await res.json();
    const [mail] = await listOutbox(tenant.id, { to: "new@example.com" });
    expect(mail!.subject).toBe(`Verify your email address for ${tenant.name}`);
    expect((await passcodeRow(id)).purpose).toBe("email_verification");
    const ok = await finalize(tenant, { id, code: await outboxCode(tenant.id, "new@example.com") });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get("set-cookie")!;
    const claims = decodeJwt(cookie.slice("hanko=".length, cookie.indexOf(";")));
    expect(claims).toMatchObject({
      sub: user_id,
      email: { address: "new@example.com", is_primary: true, is_verified: true },
    });
    const events = (await listAuditEvents(tenant.id, { limit: 50 })).items;
    expect(events.find((event) => event.type === "email.verified")?.details).toEqual({
      userId: user_id,
      emailId: email_id,
    });
  });

  it("verifies an address added to an account only with that account's session", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "main@example.com");
    const token = await sessionFor(tenant, user);
    const added = await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      token,
      body: { address: "extra@example.com" },
    });
    const { id: emailId, passcode } = await added.json();
    const code = await outboxCode(tenant.id, "extra@example.com");

    const anonymous = await finalize(tenant, { id: passcode.id, code });
    expect(anonymous.status).toBe(403);
    expect((await anonymous.json()).message).toBe(
      "Forbidden: verifying an additional address needs a session of its user",
    );
    const noSession = await initialize(tenant, { user_id: user.id, email_id: emailId });
    expect(noSession.status).toBe(403);

    // A cookie works as well as a bearer token; finalize is not a session route, so no Origin check.
    const ok = await finalize(tenant, { id: passcode.id, code }, { cookie: token, origin: ORIGIN });
    expect(ok.status).toBe(200);
    const db = await executor();
    const [row] = await db
      .select()
      .from(emails)
      .where(and(eq(emails.id, emailId), eq(emails.userId, user.id)));
    expect(row).toMatchObject({ verified: true, isPrimary: false });
  });

  it("is gone (404) for tenants on API version 3", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "v3@example.com");
    const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3 } });
    const res = await initialize(v3, { user_id: user.id });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe(404);
    expect((await finalize(v3, { id: crypto.randomUUID(), code: "123456" })).status).toBe(404);
    expect(await listOutbox(tenant.id)).toEqual([]);
  });

  it("counts concurrent wrong codes exactly: 3 counted, the rest refused", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "burst@example.com");
    const { id, code } = await requestCode(tenant, user, "burst@example.com");
    const results = await Promise.all(
      Array.from({ length: 5 }, () => finalize(tenant, { id, code: wrong(code) })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([401, 401, 410, 410, 410]);
    expect((await passcodeRow(id)).failedAttempts).toBe(3);
  });
});
