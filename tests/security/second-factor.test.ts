import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import * as passwordLoginRoute from "@/app/(public-api)/t/[tenantId]/password/login/route";
import { listAuditEvents } from "@/lib/audit";
import {
  issueCreationOptions,
  storeRegisteredCredential,
  verifyRegistration,
} from "@/lib/ceremonies/webauthn/registration";
import { executor } from "@/lib/db";
import { otpSecrets, passcodes, passwords, sessions } from "@/lib/db/schema";
import { MAX_OTP_FAILURES } from "@/lib/mfa";
import { listOutbox } from "@/lib/mail";
import { setPasswordOfSelf } from "@/lib/accounts";
import { updateTenant, type Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { act, expectFlowError, expectState } from "../helpers/flows";
import { actNotOffered, addTotp, forgotPassword, identify, loginInit, totpCode } from "../helpers/login";
import {
  ORIGIN,
  TEST_CONTEXT,
  createPasscodeTenant,
  createUserWithEmail,
  expectPublicError,
  publicCall,
  useDevOutbox,
  validateSessionCookie,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";
import { WebAuthnSoftwareAuthenticator } from "../helpers/webauthn-software-authenticator";

useDevOutbox();

const PASSWORD = "correct horse battery staple";

async function sessionRows(tenant: Tenant, user: User) {
  const db = await executor();
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenant.id), eq(sessions.userId, user.id)));
}

async function passwordHash(tenant: Tenant, user: User): Promise<string | undefined> {
  const db = await executor();
  const [row] = await db
    .select({ hash: passwords.hash })
    .from(passwords)
    .where(and(eq(passwords.tenantId, tenant.id), eq(passwords.userId, user.id)));
  return row?.hash;
}

/** A user with a verified primary address, a password and an authenticator app. */
async function userWithTotp(tenant: Tenant) {
  const mail = `${crypto.randomUUID()}@example.com`;
  const user = await createUserWithEmail(tenant, mail);
  await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
  const secret = await addTotp(tenant, user);
  return { user, mail, secret };
}

const wrongCode = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

describe("security 1: the deprecated public API never logs in with one factor of a user with a second", () => {
  it("security 1: POST /passcode/login/finalize answers 403 for a user with an authenticator app; no session, the code stays unused", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const { user, mail } = await userWithTotp(tenant);
    const init = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
      body: { user_id: user.id },
    });
    expect(init.status).toBe(200);
    const { id } = (await init.json()) as { id: string };
    const code = await outboxCode(tenant.id, mail);
    const res = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      body: { id, code },
    });
    const body = await expectPublicError(res, 403, /second factor.*flow API/, ["set-cookie", "x-auth-token"]);
    expect(body.message).toContain("/login");
    expect(await sessionRows(tenant, user)).toEqual([]);
    const db = await executor();
    const [row] = await db.select().from(passcodes).where(eq(passcodes.id, id));
    expect(row?.usedAt).toBeNull();
    const { items } = await listAuditEvents(tenant.id, { limit: 50 });
    expect(items.map((event) => event.type)).toContain("passcode.login.finalize.failed");
  });

  it("security 1: POST /password/login answers 403 for a user with an authenticator app, and logs in when the tenant has MFA off", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const { user } = await userWithTotp(tenant);
    const login = () =>
      publicCall(passwordLoginRoute.POST, tenant, "POST", "/password/login", {
        body: { user_id: user.id, password: PASSWORD },
      });
    await expectPublicError(await login(), 403, /second factor/, ["set-cookie", "x-auth-token"]);
    expect(await sessionRows(tenant, user)).toEqual([]);

    // A tenant that does not enforce the second factor (MFA off) lets the password alone log in.
    const off = await updateTenant(tenant.id, { platform: { mfa: { enabled: false } } });
    const res = await publicCall(passwordLoginRoute.POST, off, "POST", "/password/login", {
      body: { user_id: user.id, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    const { session } = await validateSessionCookie(off, res);
    expect(session).toMatchObject({ is_valid: true, user_id: user.id });
  });

  it("security 1: a security key alone counts as the second factor too", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const user = await createUserWithEmail(tenant);
    await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
    const options = await issueCreationOptions(tenant, "mfa-registration", user, {
      userName: "key",
      displayName: "key",
    });
    const response = await new WebAuthnSoftwareAuthenticator().register(options, { origin: ORIGIN });
    const verified = await verifyRegistration(tenant, "mfa-registration", response, { userId: user.id });
    await storeRegisteredCredential(tenant, "mfa-registration", user, response, verified, {
      ...TEST_CONTEXT,
      actor: user.id,
    });
    const res = await publicCall(passwordLoginRoute.POST, tenant, "POST", "/password/login", {
      body: { user_id: user.id, password: PASSWORD },
    });
    await expectPublicError(res, 403, /second factor/, ["set-cookie", "x-auth-token"]);
    expect(await sessionRows(tenant, user)).toEqual([]);
  });

  it("security 1: a forgotten password is set only after the second factor", async () => {
    const tenant = await createPasscodeTenant({ platform: { password: { enabled: true } } });
    const { user, mail, secret } = await userWithTotp(tenant);
    const before = await passwordHash(tenant, user);
    const { passcode, code } = await forgotPassword(tenant, mail);
    // The mailbox alone leads to the second factor, not to the new-password form.
    const otp = expectState(await act(tenant, passcode, "verify_passcode", { code }), "login_otp");
    expect(Object.keys(otp.actions)).not.toContain("password_recovery");
    const skipped = await actNotOffered(tenant, otp, "password_recovery", {
      new_password: "chosen by the attacker",
    });
    expectFlowError(skipped, "operation_not_permitted_error", 403, "error");
    expect(await passwordHash(tenant, user)).toBe(before);

    const recovery = expectState(
      await act(tenant, otp, "otp_code_validate", { otp_code: totpCode(secret) }),
      "login_password_recovery",
      ["password_recovery"],
    );
    expect(await sessionRows(tenant, user)).toEqual([]);
    const done = expectState(
      await act(tenant, recovery, "password_recovery", { new_password: "a brand new password" }),
      "success",
    );
    expect((done.payload as { claims: { amr: string[] } }).claims.amr).toEqual(["otp", "totp"]);
    expect(await passwordHash(tenant, user)).not.toBe(before);
  });
});

describe("security 4: authenticator app codes cannot be guessed without end", () => {
  it("security 4: after 5 wrong codes in a row the login starts over, the app is locked for a growing while and the user is mailed once", async () => {
    const tenant = await createPasscodeTenant({
      platform: { password: { enabled: true }, passcodes: { enabled: false } },
    });
    const { user, mail, secret } = await userWithTotp(tenant);
    const passwordStep = async () => {
      const form = expectState(await identify(tenant, await loginInit(tenant), mail), "login_password");
      return expectState(await act(tenant, form, "password_login", { password: PASSWORD }), "login_otp");
    };
    let state = await passwordStep();
    const wrong = wrongCode(totpCode(secret));
    for (let i = 1; i < MAX_OTP_FAILURES; i++) {
      state = expectFlowError(
        await act(tenant, state, "otp_code_validate", { otp_code: wrong }),
        "form_data_invalid_error",
        400,
        "login_otp",
      );
    }
    expect(await listOutbox(tenant.id, { to: mail })).toEqual([]);
    const ended = expectFlowError(
      await act(tenant, state, "otp_code_validate", { otp_code: wrong }),
      "operation_not_permitted_error",
      403,
      "login_init",
    );
    expect(ended.error?.message).toMatch(/too many wrong codes/i);
    // The first factor again: the flow has no user any more; the right code is no longer accepted here.
    const late = await actNotOffered(tenant, ended, "otp_code_validate", { otp_code: totpCode(secret) });
    expectFlowError(late, "operation_not_permitted_error", 403, "error");
    expect(await sessionRows(tenant, user)).toEqual([]);
    const [warning] = await listOutbox(tenant.id, { to: mail });
    expect(warning?.subject).toMatch(/failed sign-in attempts/i);
    const { items } = await listAuditEvents(tenant.id, { limit: 100 });
    expect(items.find((event) => event.type === "otp.attempts_exceeded")?.details).toMatchObject({
      failures: MAX_OTP_FAILURES,
      notified: true,
    });

    // The first factor again: the app is locked for a minute, so not even the right code is checked.
    const locked = await passwordStep();
    const waiting = await act(tenant, locked, "otp_code_validate", { otp_code: totpCode(secret) });
    expectFlowError(waiting, "rate_limit_exceeded", 429, "login_init");
    expect(Number(waiting.res.headers.get("retry-after"))).toBeGreaterThan(50);
    expect(await sessionRows(tenant, user)).toEqual([]);

    // Once the lock is over the right code signs in and the count starts over.
    const db = await executor();
    await db
      .update(otpSecrets)
      .set({ lockedAt: sql`${otpSecrets.lockedAt} - interval '61 seconds'` })
      .where(eq(otpSecrets.userId, user.id));
    const again = await passwordStep();
    expectState(await act(tenant, again, "otp_code_validate", { otp_code: totpCode(secret) }), "success");
    const [row] = await db.select().from(otpSecrets).where(eq(otpSecrets.userId, user.id));
    expect(row).toMatchObject({ failedAttempts: 0, lockedAt: null });
    // One warning mail for the one lock.
    expect(await listOutbox(tenant.id, { to: mail })).toHaveLength(1);
  });
});
