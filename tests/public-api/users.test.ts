import { decodeJwt } from "jose";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as emailsRoute from "@/app/(public-api)/t/[tenantId]/emails/route";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import * as meRoute from "@/app/(public-api)/t/[tenantId]/me/route";
import * as userRoute from "@/app/(public-api)/t/[tenantId]/user/route";
import * as userByIdRoute from "@/app/(public-api)/t/[tenantId]/users/[userId]/route";
import * as usersRoute from "@/app/(public-api)/t/[tenantId]/users/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, users, webauthnCredentials } from "@/lib/db/schema";
import { updateTenant, type Tenant } from "@/lib/tenants";
import {
  createPasscodeTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  useDevOutbox,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";

useDevOutbox();

const signUp = (tenant: Tenant, body: unknown) =>
  publicCall(usersRoute.POST, tenant, "POST", "/users", { body });
const lookup = (tenant: Tenant, body: unknown) =>
  publicCall(userRoute.POST, tenant, "POST", "/user", { body });
const getUser = (tenant: Tenant, userId: string, token?: string) =>
  publicCall(userByIdRoute.GET, tenant, "GET", `/users/${userId}`, token ? { token } : {}, { userId });

async function userCount(tenant: Tenant) {
  const db = await executor();
  return (await db.select().from(users).where(eq(users.tenantId, tenant.id))).length;
}

async function emailRow(emailId: string) {
  const db = await executor();
  const [row] = await db.select().from(emails).where(eq(emails.id, emailId));
  return row;
}

/** Verifies a sign-up's primary address by passcode; returns the session JWT. */
async function verify(tenant: Tenant, userId: string, emailId: string, address: string): Promise<string> {
  const init = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
    body: { user_id: userId, email_id: emailId },
  });
  const { id } = await init.json();
  const ok = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
    body: { id, code: await outboxCode(tenant.id, address) },
  });
  expect(ok.status).toBe(200);
  const cookie = ok.headers.get("set-cookie")!;
  return cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";"));
}

describe("sign-up (POST /users)", () => {
  it("creates a user with an unverified primary address and no session while verification is required", async () => {
    const tenant = await createPasscodeTenant();
    const res = await signUp(tenant, { email: " Ann@Example.com" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ id: body.user_id, user_id: expect.any(String), email_id: expect.any(String) });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("x-auth-token")).toBeNull();
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/registration>; rel="successor-version"`);
    expect(await emailRow(body.email_id)).toMatchObject({
      userId: body.user_id,
      address: "ann@example.com",
      verified: false,
      isPrimary: true,
    });
    const events = (await listAuditEvents(tenant.id, { limit: 10 })).items;
    expect(events.find((event) => event.type === "user.signup.succeeded")?.details).toEqual({
      userId: body.user_id,
      emailId: body.email_id,
      again: false,
    });

    // Signing up again before verifying answers the same user; nothing new is created.
    const again = await signUp(tenant, { email: "ann@example.com" });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
    expect(await userCount(tenant)).toBe(1);

    // The passcode verifies the address and logs the user in; then the address is taken.
    const token = await verify(tenant, body.user_id, body.email_id, "ann@example.com");
    expect(decodeJwt(token)).toMatchObject({ sub: body.user_id, amr: ["otp"] });
    expect((await emailRow(body.email_id))!.verified).toBe(true);
    const taken = await signUp(tenant, { email: "ANN@example.com" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({
      code: 409,
      message: "Conflict: a user with this email address already exists",
    });
    expect(await userCount(tenant)).toBe(1);
  });

  it("logs the new user in at once when the tenant does not require verification", async () => {
    const tenant = await createPasscodeTenant({ platform: { emails: { requireVerification: false } } });
    const res = await signUp(tenant, { email: "bo@example.com" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(res.headers.get("x-session-lifetime")).toBe("3600");
    const cookie = res.headers.get("set-cookie")!;
    const token = cookie.slice("hanko=".length, cookie.indexOf(";"));
    expect(decodeJwt(token)).toMatchObject({
      sub: body.user_id,
      amr: [],
      email: { address: "bo@example.com", is_primary: true, is_verified: false },
    });
    const me = await publicCall(meRoute.GET, tenant, "GET", "/me", { token });
    expect((await me.json()).user_id).toBe(body.user_id);
    // Without verification every existing address is taken, verified or not.
    expect((await signUp(tenant, { email: "bo@example.com" })).status).toBe(409);
  });

  it("sends the token as X-Auth-Token in cross-domain mode", async () => {
    const tenant = await createPasscodeTenant({
      platform: { emails: { requireVerification: false }, session: { crossDomain: true } },
    });
    const res = await signUp(tenant, { email: "cross@example.com" });
    expect(res.headers.get("x-auth-token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("takes over another account's unverified, non-primary claim on the address", async () => {
    const tenant = await createPasscodeTenant();
    const squatter = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, squatter);
    await publicCall(emailsRoute.POST, tenant, "POST", "/emails", {
      token,
      body: { address: "eve@example.com" },
    });
    const res = await signUp(tenant, { email: "eve@example.com" });
    expect(res.status).toBe(200);
    const { user_id, email_id } = await res.json();
    expect(user_id).not.toBe(squatter.id);
    expect(await emailRow(email_id)).toMatchObject({ userId: user_id, isPrimary: true });
  });

  it("does not hand out a pending user that has logged in or holds a credential", async () => {
    const tenant = await createPasscodeTenant({ platform: { emails: { requireVerification: false } } });
    const first = await (await signUp(tenant, { email: "old@example.com" })).json();
    const strict = await updateTenant(tenant.id, { platform: { emails: { requireVerification: true } } });
    // The first sign-up got a session while verification was off: its address is taken now.
    const res = await signUp(strict, { email: "old@example.com" });
    expect(res.status).toBe(409);
    expect(await userCount(strict)).toBe(1);
    expect((await emailRow(first.email_id))!.userId).toBe(first.user_id);
  });

  it("refuses bad input and a tenant without sign-up, creating nothing", async () => {
    const tenant = await createPasscodeTenant();
    const cases: [unknown, string][] = [
      [{}, "Bad Request: body.email: "],
      [{ email: "nope" }, "Bad Request: body.email: must be an email address"],
      [{ email: "" }, "Bad Request: body.email: must be an email address"],
      [{ email: ["a@example.com"] }, "Bad Request: body.email: "],
    ];
    for (const [body, message] of cases) {
      const res = await signUp(tenant, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = await res.json();
      expect(error.code).toBe(400);
      expect(error.message.startsWith(message), error.message).toBe(true);
    }
    const closed = await updateTenant(tenant.id, { platform: { account: { allowSignup: false } } });
    const refused = await signUp(closed, { email: "late@example.com" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 403,
      message: "Forbidden: sign-up is disabled for this tenant",
    });
    expect(await userCount(tenant)).toBe(0);
    const types = (await listAuditEvents(tenant.id, { limit: 10 })).items.map((event) => event.type);
    expect(types).toContain("user.signup.failed");

    const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3, account: { allowSignup: true } } });
    expect((await signUp(v3, { email: "v3@example.com" })).status).toBe(404);
    expect(await userCount(tenant)).toBe(0);
  });
});

describe("GET /users/{userId}", () => {
  it("returns the session's own user in Hanko's shape, 403 for others, 401 without a session", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "own@example.com");
    const token = await sessionFor(tenant, user);
    const res = await getUser(tenant, user.id, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: user.id,
      email: "own@example.com",
      webauthn_credentials: [],
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    });
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/me>; rel="successor-version"`);
    expect(res.headers.get("deprecation")).toBe("true");

    const other = await createUserWithEmail(tenant);
    const forbidden = await getUser(tenant, other.id, token);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      code: 403,
      message: "Forbidden: a session may only read its own user",
    });
    expect((await getUser(tenant, crypto.randomUUID(), token)).status).toBe(403);
    expect((await getUser(tenant, "nope", token)).status).toBe(400);
    expect((await getUser(tenant, user.id)).status).toBe(401);
    const foreign = await createPasscodeTenant();
    const foreignToken = await sessionFor(foreign, await createUserWithEmail(foreign));
    expect((await getUser(tenant, user.id, foreignToken)).status).toBe(401);
  });

  it("lists the user's WebAuthn credentials", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant);
    await saveCredential(tenant, user.id, false);
    const body = await (await getUser(tenant, user.id, await sessionFor(tenant, user))).json();
    expect(body.webauthn_credentials).toEqual([
      expect.objectContaining({ id: "cred-1", name: "Key", mfa_only: false, transports: ["internal"] }),
    ]);
  });
});

async function saveCredential(tenant: Tenant, userId: string, isMfa: boolean) {
  const db = await executor();
  await db.insert(webauthnCredentials).values({
    tenantId: tenant.id,
    id: isMfa ? "cred-mfa" : "cred-1",
    userId,
    name: "Key",
    publicKey: "pk",
    transports: ["internal"],
    aaguid: "00000000-0000-0000-0000-000000000000",
    attestationType: "none",
    backupEligible: true,
    backupState: true,
    userVerified: true,
    isMfa,
  });
}

describe("GET /me", () => {
  it("answers the username as Hanko's Username object, and leaves it out when the user has none", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "uma@example.com");
    const token = await sessionFor(tenant, user);
    const without = await (await publicCall(meRoute.GET, tenant, "GET", "/me", { token })).json();
    expect(without).not.toHaveProperty("username");

    const db = await executor();
    const [row] = await db.update(users).set({ username: "uma" }).where(eq(users.id, user.id)).returning();
    const res = await publicCall(meRoute.GET, tenant, "GET", "/me", { token });
    expect(res.status).toBe(200);
    const profile = await res.json();
    expect(profile).toEqual({
      id: user.id,
      user_id: user.id,
      emails: [{ id: expect.any(String), address: "uma@example.com", is_verified: true, is_primary: true }],
      username: {
        id: user.id,
        username: "uma",
        created_at: row!.createdAt.toISOString(),
        updated_at: row!.updatedAt.toISOString(),
      },
      created_at: row!.createdAt.toISOString(),
      updated_at: row!.updatedAt.toISOString(),
    });
  });
});

describe("POST /user (find the user of an address)", () => {
  it("answers Hanko's UserInfo for an address with an account, case-insensitively", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant, "known@example.com");
    const res = await lookup(tenant, { email: "Known@Example.com" });
    expect(res.status).toBe(200);
    const [email] = await (await executor()).select().from(emails).where(eq(emails.userId, user.id));
    expect(await res.json()).toEqual({
      id: user.id,
      email_id: email!.id,
      verified: true,
      has_webauthn_credential: false,
    });
    expect(res.headers.get("deprecation")).toBe("true");
    await saveCredential(tenant, user.id, true);
    expect(
      (await (await lookup(tenant, { email: "known@example.com" })).json()).has_webauthn_credential,
    ).toBe(false);
    await saveCredential(tenant, user.id, false);
    expect(
      (await (await lookup(tenant, { email: "known@example.com" })).json()).has_webauthn_credential,
    ).toBe(true);
  });

  it("is 404 for unknown addresses, other tenants' and unverified ones while verification is required", async () => {
    const tenant = await createPasscodeTenant();
    const other = await createPasscodeTenant();
    await createUserWithEmail(other, "elsewhere@example.com");
    await signUp(tenant, { email: "pending@example.com" });
    for (const email of ["nobody@example.com", "elsewhere@example.com", "pending@example.com"]) {
      const res = await lookup(tenant, { email });
      expect(res.status, email).toBe(404);
      expect(await res.json()).toEqual({ code: 404, message: "Not Found: user not found" });
    }
    const lax = await updateTenant(tenant.id, { platform: { emails: { requireVerification: false } } });
    const found = await lookup(lax, { email: "pending@example.com" });
    expect(found.status).toBe(200);
    expect((await found.json()).verified).toBe(false);
    const bad = await lookup(tenant, { email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("Bad Request: body.email: must be an email address");
  });
});

describe("DELETE /user", () => {
  it("deletes the account only when the tenant allows it, clearing the cookie", async () => {
    const tenant = await createPasscodeTenant();
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    const refused = await publicCall(userRoute.DELETE, tenant, "DELETE", "/user", { token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 403,
      message: "Forbidden: account deletion is disabled for this tenant",
    });
    expect(await userCount(tenant)).toBe(1);

    const allowing = await updateTenant(tenant.id, { platform: { account: { allowDeletion: true } } });
    const anonymous = await publicCall(userRoute.DELETE, allowing, "DELETE", "/user");
    expect(anonymous.status).toBe(401);
    const res = await publicCall(userRoute.DELETE, allowing, "DELETE", "/user", { token });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^hanko=; .*Max-Age=0/);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(await userCount(tenant)).toBe(0);
    expect((await publicCall(meRoute.GET, allowing, "GET", "/me", { token })).status).toBe(401);
    const types = (await listAuditEvents(tenant.id, { limit: 20 })).items.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["user.deleted", "user.delete.failed"]));
  });
});
