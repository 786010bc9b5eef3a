import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  addUserEmail,
  makeEmailPrimary,
  removeUserCredential,
  removeUserEmail,
  saveProfile,
  setUserLocked,
} from "@/app/(console)/console/(signed-in)/tenants/[tenantId]/users/actions";
import { createAdminUser, getAdminUser, setPasswordOfSelf } from "@/lib/accounts";
import { queryAuditLogs } from "@/lib/audit-logs";
import {
  finalizePublicLogin,
  initializePublicLogin,
  initializePublicRegistration,
  finalizePublicRegistration,
} from "@/lib/ceremonies/webauthn";
import { describeActivity, recentActivity } from "@/lib/console/activity";
import { AppError } from "@/lib/errors";
import { checkSessionToken } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser } from "@/lib/users";
import { createWebhook, listDeliveries } from "@/lib/webhooks";
import { signInOperator } from "@/tests/helpers/console";
import { act, expectState, sessionCookieOf } from "@/tests/helpers/flows";
import { identify, loginInit } from "@/tests/helpers/login";
import { ORIGIN, TEST_CONTEXT, createPasscodeTenant, sessionFor } from "@/tests/helpers/public-api";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";

// Next's request plumbing only (see tests/helpers/console.ts); imported lazily, as vi.mock is hoisted.
vi.mock("next-auth", async (original) =>
  (await import("@/tests/helpers/console")).nextMocks.nextAuth(original as never),
);
vi.mock("next/headers", async () => (await import("@/tests/helpers/console")).nextMocks.headers());
vi.mock("next/cache", async () => (await import("@/tests/helpers/console")).nextMocks.cache());

/**
 * Issue 29, point 11: the user page's changes go through the admin API's operations (emails, username,
 * credentials) or lib/accounts' lock, each refused with a message next to its field, never thrown.
 */

const PASSWORD = "correct horse battery staple";
let tenant: Tenant;
let operatorId: string;

const address = () => `${randomUUID()}@users.test`;

async function platformUser(mail = address()) {
  const view = await createAdminUser(
    tenant,
    { emails: [{ address: mail, isPrimary: true, isVerified: true }] },
    TEST_CONTEXT,
  );
  return { user: view.user, mail };
}

/** The flow API's login up to the password (the user also has a passkey: through the method chooser). */
async function toPassword(mail: string) {
  const chooser = expectState(await identify(tenant, await loginInit(tenant), mail), "login_method_chooser");
  return expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
}

beforeAll(async () => {
  operatorId = (await signInOperator(`owner-${randomUUID()}@users.test`)).operator.id;
  tenant = await createPasscodeTenant({
    platform: { password: { enabled: true }, passcodes: { enabled: false }, username: { enabled: true } },
  });
});

describe("locking a user (issue 29, point 11)", () => {
  it("ends their sessions, refuses every sign-in until unlocked, audits and sends user.update", async () => {
    const { user, mail } = await platformUser();
    await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const registration = await initializePublicRegistration(tenant, user, TEST_CONTEXT);
    await finalizePublicRegistration(
      tenant,
      user,
      await authenticator.register(registration, { origin: ORIGIN }),
      TEST_CONTEXT,
    );
    const webhook = await createWebhook(
      tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["user.update"] },
      TEST_CONTEXT,
    );
    const token = await sessionFor(tenant, user);
    expect(await checkSessionToken(tenant, token)).toBeDefined();

    const locked = await setUserLocked(tenant.id, user.id, true);
    expect(locked).toEqual({ ok: true, data: null });
    expect((await findUser(tenant.id, user.id))!.lockedAt).toBeInstanceOf(Date);
    // The session of before ends with the lock.
    expect(await checkSessionToken(tenant, token)).toBeUndefined();
    // No new session on any path: issued directly, by a password in the flow API, by a passkey.
    await expect(sessionFor(tenant, user)).rejects.toMatchObject({ code: "USER_LOCKED" });
    const password = await toPassword(mail);
    const refused = await act(tenant, password, "password_login", { password: PASSWORD });
    expect(refused.res.status).toBe(403);
    expect(refused.body.error?.code).toBe("operation_not_permitted_error");
    expect(refused.body.error?.message).toMatch(/locked/);
    expect(sessionCookieOf(refused.res)).toBeUndefined();
    const options = await initializePublicLogin(tenant, { userId: user.id }, TEST_CONTEXT);
    const assertion = await authenticator.login(options, { origin: ORIGIN });
    await expect(finalizePublicLogin(tenant, assertion, TEST_CONTEXT)).rejects.toMatchObject({
      code: "USER_LOCKED",
    });

    const { entries } = await queryAuditLogs(tenant.id, { types: ["user.locked"] });
    expect(entries.find((entry) => entry.details.userId === user.id)?.actor).toBe(`operator:${operatorId}`);
    const { deliveries } = await listDeliveries(tenant.id, webhook.webhook.id, { page: 1, perPage: 10 });
    expect(deliveries.map(({ event }) => event.event)).toContain("user.update");

    // Locking again changes nothing; unlocking lets the user in again and notes the sign-in.
    expect((await setUserLocked(tenant.id, user.id, true)).ok).toBe(true);
    expect((await setUserLocked(tenant.id, user.id, false)).ok).toBe(true);
    const again = await toPassword(mail);
    const done = await act(tenant, again, "password_login", { password: PASSWORD });
    expect(sessionCookieOf(done.res)).toBeDefined();
    const after = await findUser(tenant.id, user.id);
    expect(after!.lockedAt).toBeNull();
    expect(after!.lastSignInAt).toBeInstanceOf(Date);
  });

  it.each([
    ["a user id that is no UUID", "nope", true],
    ["an unknown user", randomUUID(), true],
    ["a flag that is not a boolean", undefined, "yes"],
  ])("refuses %s without throwing", async (_case, userId, flag) => {
    const { user } = await platformUser();
    const result = await setUserLocked(tenant.id, userId ?? user.id, flag as boolean);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^[A-Z]/);
  });
});

describe("the user's profile, addresses and credentials from the console", () => {
  it("saves the username and name; refuses a malformed or taken username next to its field", async () => {
    const { user } = await platformUser();
    const name = `ada${randomUUID().slice(0, 8)}`;
    expect(await saveProfile(tenant.id, user.id, { username: name, name: "Ada Lovelace" })).toEqual({
      ok: true,
      data: null,
    });
    expect((await getAdminUser(tenant.id, user.id)).user).toMatchObject({
      username: name,
      name: "Ada Lovelace",
    });
    const bad = await saveProfile(tenant.id, user.id, { username: "no spaces here", name: "" });
    expect(bad.ok || bad.fieldErrors?.username).toMatch(/letters, digits/i);
    const { user: other } = await platformUser();
    const taken = await saveProfile(tenant.id, other.id, { username: name, name: "" });
    expect(taken.ok || taken.fieldErrors?.username).toMatch(/another user/i);
  });

  it("refuses a username while usernames are off, and still clears the name", async () => {
    const off = await createPasscodeTenant({ platform: { username: { enabled: false } } });
    const view = await createAdminUser(
      off,
      { emails: [{ address: address(), isPrimary: true, isVerified: true }] },
      TEST_CONTEXT,
    );
    const result = await saveProfile(off.id, view.user.id, { username: "ada", name: "Ada" });
    expect(result.ok || result.fieldErrors?.username).toMatch(/^Usernames are not enabled/);
    expect((await saveProfile(off.id, view.user.id, { username: "", name: "Ada" })).ok).toBe(true);
  });

  it("adds an address, makes it primary, removes the old one; never the primary", async () => {
    const { user, mail } = await platformUser();
    const second = address();
    expect(
      (await addUserEmail(tenant.id, user.id, { address: second, verified: true, primary: false })).ok,
    ).toBe(true);
    const taken = await addUserEmail(tenant.id, user.id, { address: second, verified: true, primary: false });
    expect(taken.ok || taken.fieldErrors?.address).toMatch(/^[A-Z]/);
    const malformed = await addUserEmail(tenant.id, user.id, {
      address: "not an address",
      verified: true,
      primary: false,
    });
    expect(malformed.ok || malformed.fieldErrors?.address).toMatch(/^[A-Z]/);

    const emails = (await getAdminUser(tenant.id, user.id)).emails;
    const first = emails.find((email) => email.address === mail)!;
    const added = emails.find((email) => email.address === second)!;
    const primaryRefused = await removeUserEmail(tenant.id, user.id, first.id);
    expect(primaryRefused.ok).toBe(false);
    expect((await makeEmailPrimary(tenant.id, user.id, added.id)).ok).toBe(true);
    expect((await removeUserEmail(tenant.id, user.id, first.id)).ok).toBe(true);
    const after = (await getAdminUser(tenant.id, user.id)).emails;
    expect(after.map((email) => [email.address, email.isPrimary])).toEqual([[second, true]]);
    // Another user's address id is not this user's.
    const { user: other } = await platformUser();
    expect((await removeUserEmail(tenant.id, other.id, added.id)).ok).toBe(false);
  });

  it("removes a passkey; another user's or an unknown one is refused", async () => {
    const { user } = await platformUser();
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const options = await initializePublicRegistration(tenant, user, TEST_CONTEXT);
    const response = await authenticator.register(options, { origin: ORIGIN });
    await finalizePublicRegistration(tenant, user, response, TEST_CONTEXT);
    const { user: other } = await platformUser();
    expect((await removeUserCredential(tenant.id, other.id, response.id)).ok).toBe(false);
    expect((await removeUserCredential(tenant.id, user.id, "")).ok).toBe(false);
    expect((await removeUserCredential(tenant.id, user.id, response.id)).ok).toBe(true);
    expect((await getAdminUser(tenant.id, user.id)).credentials).toEqual([]);
  });
});

describe("recent activity in words", () => {
  it.each([
    [{ type: "session.created", details: { amr: ["passkey"] } }, "Signed in with a passkey"],
    [
      { type: "session.created", details: { amr: ["pwd", "totp"] } },
      "Signed in with a password and an authenticator app",
    ],
    [{ type: "session.created", details: { amr: ["otp"] } }, "Signed in with a code sent by email"],
    [{ type: "email.create.succeeded", details: {} }, "Added an email address"],
    [{ type: "passkey.login.finalize.failed", details: {} }, "Failed to sign in with a passkey"],
    [{ type: "authenticator.device.renamed", details: {} }, "Authenticator device renamed"],
  ])("%j reads “%s”", (event, words) => {
    expect(describeActivity(event)).toBe(words);
  });

  it("leaves out flow steps and ceremony starts", () => {
    const events = [
      { type: "flow.profile.register_client_capabilities.succeeded", details: {} },
      { type: "webauthn.login.initialize.succeeded", details: {} },
      { type: "webauthn.login.finalize.succeeded", details: {} },
      { type: "session.created", details: { amr: ["passkey"] } },
      { type: "user.signup.succeeded", details: {} },
    ];
    expect(recentActivity(events, 1).map((event) => event.words)).toEqual(["Signed in with a passkey"]);
    expect(recentActivity(events, 5).map((event) => event.words)).toEqual([
      "Signed in with a passkey",
      "Signed up",
    ]);
  });
});

describe("an AppError escapes none of these actions", () => {
  it("answers refusals as results", async () => {
    for (const call of [
      () => makeEmailPrimary(tenant.id, randomUUID(), randomUUID()),
      () => removeUserEmail(tenant.id, randomUUID(), "x"),
      () => addUserEmail(tenant.id, randomUUID(), { address: address(), verified: true, primary: true }),
      () => saveProfile(tenant.id, randomUUID(), { username: "", name: "" }),
    ]) {
      const result = await call().catch((error: unknown) => error);
      expect(result instanceof AppError).toBe(false);
      expect((result as { ok: boolean }).ok).toBe(false);
    }
  });
});
