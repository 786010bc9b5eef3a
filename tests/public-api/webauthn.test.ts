import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as credential from "@/app/(public-api)/t/[tenantId]/webauthn/credentials/[id]/route";
import * as credentials from "@/app/(public-api)/t/[tenantId]/webauthn/credentials/route";
import * as loginFinalize from "@/app/(public-api)/t/[tenantId]/webauthn/login/finalize/route";
import * as loginInitialize from "@/app/(public-api)/t/[tenantId]/webauthn/login/initialize/route";
import * as registrationFinalize from "@/app/(public-api)/t/[tenantId]/webauthn/registration/finalize/route";
import * as registrationInitialize from "@/app/(public-api)/t/[tenantId]/webauthn/registration/initialize/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, sessions, users } from "@/lib/db/schema";
import { updateTenant, type Tenant } from "@/lib/tenants";
import { toUser, type User } from "@/lib/users/user";
import { passkeyRequest } from "../helpers/passkey-api";
import { registerPasskey, startLogin } from "../helpers/passkey-ceremonies";
import {
  auditEvents,
  challengeCount,
  expireChallenges,
  storedCredential,
  tenantState,
} from "../helpers/passkey-security";
import {
  ORIGIN,
  createUserWithEmail,
  expectPublicError as expectError,
  publicCall,
  sessionFor,
  validateSessionCookie,
} from "../helpers/public-api";
import { WebAuthnSoftwareAuthenticator, b64url } from "../helpers/webauthn-software-authenticator";
import { createTestTenant } from "../helpers/tenants";

/** A tenant (ES256 keys, fast) with its Passkey API key, for tests that mix both APIs. */
async function setup() {
  const { tenant, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
  return { tenant, keys, authenticator: new WebAuthnSoftwareAuthenticator() };
}

/** A platform user (no external id, as sign-up creates them) with a primary email. */
async function createPlatformUser(tenant: Tenant, address = `${randomUUID()}@example.com`): Promise<User> {
  const db = await executor();
  const [row] = await db.insert(users).values({ tenantId: tenant.id }).returning();
  await db
    .insert(emails)
    .values({ tenantId: tenant.id, userId: row!.id, address, verified: true, isPrimary: true });
  return toUser(row!);
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex").toString("base64url");

async function sessionCount(tenantId: string): Promise<number> {
  const db = await executor();
  const [row] = await db.select({ n: count() }).from(sessions).where(eq(sessions.tenantId, tenantId));
  return row?.n ?? 0;
}

/** What a failed call must leave alone: users, credentials, transactions and sessions. */
async function state(tenantId: string) {
  return { ...(await tenantState(tenantId)), sessions: await sessionCount(tenantId) };
}

/** Registers a passkey for the session's user through the public API; returns its id. */
async function registerPublic(tenant: Tenant, token: string, authenticator: WebAuthnSoftwareAuthenticator) {
  const init = await publicCall(
    registrationInitialize.POST,
    tenant,
    "POST",
    "/webauthn/registration/initialize",
    {
      token,
    },
  );
  expect(init.status, await init.clone().text()).toBe(200);
  const { publicKey } = await init.json();
  const response = await authenticator.register(publicKey, { origin: ORIGIN });
  const fin = await publicCall(registrationFinalize.POST, tenant, "POST", "/webauthn/registration/finalize", {
    token,
    body: response,
  });
  expect(fin.status, await fin.clone().text()).toBe(200);
  return { credentialId: response.id, publicKey, body: await fin.json() };
}

async function loginOptions(tenant: Tenant, body?: unknown) {
  const res = await publicCall(loginInitialize.POST, tenant, "POST", "/webauthn/login/initialize", {
    ...(body === undefined ? {} : { body }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).publicKey;
}

const finalizeLogin = (tenant: Tenant, body: unknown) =>
  publicCall(loginFinalize.POST, tenant, "POST", "/webauthn/login/finalize", { body });

async function listCredentials(tenant: Tenant, token: string) {
  const res = await publicCall(credentials.GET, tenant, "GET", "/webauthn/credentials", { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const patch = (tenant: Tenant, id: string, options: Parameters<typeof publicCall>[4]) =>
  publicCall(credential.PATCH, tenant, "PATCH", `/webauthn/credentials/${id}`, options, { id });
const remove = (tenant: Tenant, id: string, options: Parameters<typeof publicCall>[4]) =>
  publicCall(credential.DELETE, tenant, "DELETE", `/webauthn/credentials/${id}`, options, { id });

describe("public WebAuthn: registration, login, credentials", () => {
  it("adds a passkey to a platform user, logs in with it to a session, lists, renames and deletes it", async () => {
    const { tenant, authenticator } = await setup();
    const user = await createPlatformUser(tenant, "carol@example.com");
    const token = await sessionFor(tenant, user, ["otp"]);

    const { credentialId, publicKey, body } = await registerPublic(tenant, token, authenticator);
    expect(body).toEqual({ credential_id: credentialId, user_id: user.id });
    // A platform user's handle is its UUID's 16 bytes (Hanko's); names come from the primary email.
    expect(publicKey.user).toEqual({
      id: uuidBytes(user.id),
      name: "carol@example.com",
      displayName: "carol@example.com",
    });
    expect(publicKey.rp).toEqual({ id: "localhost", name: tenant.rpName });
    expect(publicKey.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(await storedCredential(tenant.id, credentialId)).toMatchObject({ userId: user.id, isMfa: false });

    // A second registration excludes the first credential.
    const again = await publicCall(
      registrationInitialize.POST,
      tenant,
      "POST",
      "/webauthn/registration/initialize",
      { token },
    );
    expect((await again.json()).publicKey.excludeCredentials).toEqual([
      { id: credentialId, type: "public-key" },
    ]);

    // Discoverable login: no allowCredentials; the session comes as the cookie with Hanko's headers.
    const options = await loginOptions(tenant);
    expect(options.allowCredentials).toBeUndefined();
    expect(options.userVerification).toBe("required");
    const res = await finalizeLogin(tenant, await authenticator.login(options, { origin: ORIGIN }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ credential_id: credentialId, user_id: user.id });
    expect(res.headers.get("x-session-lifetime")).toBe("3600");
    expect(res.headers.get("x-session-retention")).toBe("persistent");
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("link")).toContain(`/t/${tenant.id}/login>; rel="successor-version"`);
    const { cookie, session } = await validateSessionCookie(tenant, res);
    expect(cookie).toBeTruthy();
    expect(session).toMatchObject({
      is_valid: true,
      claims: { subject: user.id, amr: ["passkey"], email: { address: "carol@example.com" } },
    });

    // Login for a user: allowCredentials lists that user's passkeys.
    const named = await loginOptions(tenant, { user_id: user.id });
    expect(named.allowCredentials).toEqual([{ id: credentialId, type: "public-key" }]);
    const second = await finalizeLogin(tenant, await authenticator.login(named, { origin: ORIGIN }));
    expect(second.status, await second.clone().text()).toBe(200);

    // The list in Hanko 2.x's shape.
    const [listed] = await listCredentials(tenant, token);
    expect(listed).toEqual({
      id: credentialId,
      name: expect.stringMatching(/^Passkey (on .+, )?added \d{1,2} [A-Z][a-z]{2}$/),
      public_key: expect.any(String),
      attestation_type: "none",
      aaguid: "00000000-0000-0000-0000-000000000000",
      last_used_at: expect.stringMatching(/Z$/),
      created_at: expect.stringMatching(/Z$/),
      transports: ["internal"],
      backup_eligible: false,
      backup_state: false,
      mfa_only: false,
    });

    const renamed = await patch(tenant, credentialId, { token, body: { name: "  Laptop  " } });
    expect(renamed.status).toBe(204);
    expect(renamed.headers.get("link")).toContain(`/t/${tenant.id}/profile>; rel="successor-version"`);
    expect((await listCredentials(tenant, token))[0].name).toBe("Laptop");

    const deleted = await remove(tenant, credentialId, { token });
    expect(deleted.status).toBe(204);
    expect(await listCredentials(tenant, token)).toEqual([]);
    // A deleted passkey finishes no login, not even one already started.
    const late = await finalizeLogin(
      tenant,
      await authenticator.login(await loginOptions(tenant), { origin: ORIGIN }),
    );
    await expectError(late, 401, /failed to validate assertion/);

    const all = new Set((await listAuditEvents(tenant.id, { limit: 200 })).items.map((e) => e.type));
    for (const type of [
      "webauthn.registration.initialize.succeeded",
      "webauthn.registration.finalize.succeeded",
      "webauthn.login.initialize.succeeded",
      "webauthn.login.finalize.succeeded",
      "webauthn.login.finalize.failed",
      "webauthn.credential.update.succeeded",
      "webauthn.credential.delete.succeeded",
      "session.created",
    ]) {
      expect(all, type).toContain(type);
    }
    const [success] = await auditEvents(tenant.id, "webauthn.login.finalize.succeeded");
    expect(success).toMatchObject({ actor: user.id, details: { credential_id: credentialId } });
  });

  it("uses the external id's bytes as the handle of a Passkey API user, and logs in with a Passkey API passkey", async () => {
    const { tenant, keys, authenticator } = await setup();
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    const { publicKey } = await registerPublic(tenant, token, authenticator);
    expect(publicKey.user.id).toBe(Buffer.from(user.externalId!, "utf8").toString("base64url"));

    // A passkey registered through the Passkey API logs in at the public API as the same user.
    const other = new WebAuthnSoftwareAuthenticator();
    const externalId = `user-${randomUUID()}`;
    const { credentialId } = await registerPasskey(
      { tenantId: tenant.id, apiKey: keys.passkey, authenticator: other },
      externalId,
    );
    const res = await finalizeLogin(
      tenant,
      await other.login(await loginOptions(tenant), { origin: ORIGIN }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { user_id } = await res.json();
    expect(await storedCredential(tenant.id, credentialId)).toMatchObject({ userId: user_id });
  });

  it("keeps the two APIs' ceremonies apart, and the Passkey API refuses a platform user's passkey", async () => {
    const { tenant, keys, authenticator } = await setup();
    const user = await createPlatformUser(tenant);
    await registerPublic(tenant, await sessionFor(tenant, user), authenticator);

    // A Passkey API challenge is not finished at the public API (no session from a Passkey API login)…
    const passkeyOptions = await startLogin({ tenantId: tenant.id, apiKey: keys.passkey });
    const before = await state(tenant.id);
    const crossed = await finalizeLogin(
      tenant,
      await authenticator.login(passkeyOptions, { origin: ORIGIN }),
    );
    await expectError(crossed, 401, /failed to get session data/);
    expect(await state(tenant.id)).toEqual(before);

    // …nor a public one at the Passkey API; and a platform user (no external id) has no Passkey API login.
    const publicOptions = await loginOptions(tenant);
    const viaPasskey = await passkeyRequest(tenant.id, "POST", "/login/finalize", {
      body: await authenticator.login(publicOptions, { origin: ORIGIN }),
    });
    expect(viaPasskey.status).toBe(401);
    const discoverable = await startLogin({ tenantId: tenant.id, apiKey: keys.passkey });
    const platformAtPasskey = await passkeyRequest(tenant.id, "POST", "/login/finalize", {
      body: await authenticator.login(discoverable, { origin: ORIGIN }),
    });
    expect(platformAtPasskey.status).toBe(401);
    expect((await platformAtPasskey.json()).details[0]).toMatch(/unknown, not allowed/);
  });

  it("offers a discoverable login for a user without passkeys, and refuses MFA-only keys", async () => {
    const { tenant, keys } = await setup();
    const withoutPasskeys = await createPlatformUser(tenant);
    const options = await loginOptions(tenant, { user_id: withoutPasskeys.id });
    expect(options.allowCredentials).toBeUndefined();

    const mfaAuthenticator = new WebAuthnSoftwareAuthenticator();
    const externalId = `user-${randomUUID()}`;
    const ctx = { tenantId: tenant.id, apiKey: keys.passkey, authenticator: mfaAuthenticator };
    const { credentialId } = await registerPasskey(ctx, externalId, { mfa: true });
    const before = await state(tenant.id);
    const res = await finalizeLogin(
      tenant,
      await mfaAuthenticator.login(await loginOptions(tenant), { origin: ORIGIN, credentialId }),
    );
    await expectError(res, 401, /MFA credentials are not usable for normal login/);
    expect(await state(tenant.id)).toEqual(before);
    // Listed with mfa_only for its owner.
    const db = await executor();
    const [owner] = await db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenant.id), eq(users.externalId, externalId)));
    const list = await listCredentials(tenant, await sessionFor(tenant, toUser(owner!)));
    expect(list).toMatchObject([{ id: credentialId, mfa_only: true }]);
  });
});

describe("public WebAuthn: refusals change nothing", () => {
  it("needs a session of this tenant to register or manage credentials", async () => {
    const { tenant } = await setup();
    const other = await setup();
    const foreign = await sessionFor(other.tenant, await createPlatformUser(other.tenant));
    for (const token of [undefined, foreign, "garbage"]) {
      const options = token ? { token } : {};
      await expectError(
        await publicCall(
          registrationInitialize.POST,
          tenant,
          "POST",
          "/webauthn/registration/initialize",
          options,
        ),
        401,
        "Unauthorized",
      );
      await expectError(
        await publicCall(registrationFinalize.POST, tenant, "POST", "/webauthn/registration/finalize", {
          ...options,
          body: {},
        }),
        401,
      );
      await expectError(
        await publicCall(credentials.GET, tenant, "GET", "/webauthn/credentials", options),
        401,
      );
      await expectError(await patch(tenant, "abc", { ...options, body: { name: "x" } }), 401);
      await expectError(await remove(tenant, "abc", options), 401);
    }
    expect(await challengeCount(tenant.id)).toBe(0);
  });

  it("refuses a cookie-carried state change from a foreign origin (CSRF)", async () => {
    const { tenant, authenticator } = await setup();
    const user = await createPlatformUser(tenant);
    const token = await sessionFor(tenant, user);
    const { credentialId } = await registerPublic(tenant, token, authenticator);
    const res = await patch(tenant, credentialId, {
      cookie: token,
      origin: "https://evil.example",
      body: { name: "pwned" },
    });
    await expectError(res, 403);
    const ok = await patch(tenant, credentialId, { cookie: token, origin: ORIGIN, body: { name: "mine" } });
    expect(ok.status).toBe(204);
    expect((await listCredentials(tenant, token))[0].name).toBe("mine");
  });

  it("answers another user's or tenant's credential, or an unknown one, with 404 Not found", async () => {
    const { tenant, authenticator } = await setup();
    const owner = await createPlatformUser(tenant);
    const ownerToken = await sessionFor(tenant, owner);
    const { credentialId } = await registerPublic(tenant, ownerToken, authenticator);
    const intruder = await sessionFor(tenant, await createPlatformUser(tenant));
    const other = await setup();
    const otherTenantUser = await createPlatformUser(other.tenant);
    const before = await state(tenant.id);

    const cases: [Tenant, string, string][] = [
      [tenant, intruder, credentialId],
      [tenant, intruder, "bm90LWEtY3JlZGVudGlhbA"],
      [other.tenant, await sessionFor(other.tenant, otherTenantUser), credentialId],
    ];
    for (const [where, token, id] of cases) {
      const renamed = await patch(where, id, { token, body: { name: "stolen" } });
      expect(renamed.status).toBe(404);
      expect(await renamed.json()).toEqual({ code: 404, message: "Not found" });
      const deleted = await remove(where, id, { token });
      expect(deleted.status).toBe(404);
      expect(await deleted.json()).toEqual({ code: 404, message: "Not found" });
    }
    expect(await state(tenant.id)).toEqual(before);
    expect((await auditEvents(tenant.id, "webauthn.credential.update.failed")).length).toBe(2);
    expect((await auditEvents(tenant.id, "webauthn.credential.delete.failed")).length).toBe(2);
  });

  it("refuses bad rename bodies and ids with 400", async () => {
    const { tenant, authenticator } = await setup();
    const token = await sessionFor(tenant, await createPlatformUser(tenant));
    const { credentialId } = await registerPublic(tenant, token, authenticator);
    const before = await state(tenant.id);
    for (const body of [{}, { name: "" }, { name: "   " }, { name: 5 }, { name: "x".repeat(256) }, "[]"]) {
      await expectError(await patch(tenant, credentialId, { token, body }), 400, /body/);
    }
    await expectError(
      await patch(tenant, "not base64url!", { token, body: { name: "x" } }),
      400,
      /params.id/,
    );
    await expectError(await remove(tenant, "a".repeat(1365), { token }), 400, /params.id/);
    const notJson = await patch(tenant, credentialId, {
      token,
      body: "name=x",
      headers: { "content-type": "text/plain" },
    });
    await expectError(notJson, 415);
    expect(await state(tenant.id)).toEqual(before);
  });

  it("refuses a registration finalize with a bad body, another user's challenge, an expired or reused one", async () => {
    const { tenant, authenticator } = await setup();
    const alice = await createPlatformUser(tenant);
    const aliceToken = await sessionFor(tenant, alice);
    const bobToken = await sessionFor(tenant, await createPlatformUser(tenant));
    const finalize = (token: string, body: unknown) =>
      publicCall(registrationFinalize.POST, tenant, "POST", "/webauthn/registration/finalize", {
        token,
        body,
      });
    const start = async (token: string) =>
      (
        await (
          await publicCall(registrationInitialize.POST, tenant, "POST", "/webauthn/registration/initialize", {
            token,
          })
        ).json()
      ).publicKey;
    const before = await state(tenant.id);

    for (const body of [
      {},
      { id: "x" },
      { ...(await authenticator.register(await start(aliceToken), { origin: ORIGIN })), type: "nope" },
    ]) {
      await expectError(await finalize(aliceToken, body), 400, /body/);
    }
    // Bob finishes Alice's ceremony: refused, and the challenge is gone.
    const aliceResponse = await authenticator.register(await start(aliceToken), { origin: ORIGIN });
    await expectError(await finalize(bobToken, aliceResponse), 400, /another user/);
    await expectError(await finalize(aliceToken, aliceResponse), 400, /does not match/);
    // A wrong origin, and an expired challenge.
    const wrongOrigin = await authenticator.register(await start(aliceToken), {
      origin: "https://evil.example",
    });
    await expectError(await finalize(aliceToken, wrongOrigin), 400, /failed to validate attestation/);
    const late = await authenticator.register(await start(aliceToken), { origin: ORIGIN });
    await expireChallenges(tenant.id);
    await expectError(await finalize(aliceToken, late), 400, /Expired/);
    expect(await state(tenant.id)).toEqual(before);
    expect((await auditEvents(tenant.id, "webauthn.registration.finalize.failed")).length).toBe(4);

    // A successful registration's response cannot be replayed.
    const ok = await authenticator.register(await start(aliceToken), { origin: ORIGIN });
    expect((await finalize(aliceToken, ok)).status).toBe(200);
    await expectError(await finalize(aliceToken, ok), 400, /does not match/);
  });

  it("refuses login inputs: bad user ids, unknown users, bad bodies, tampered or replayed assertions", async () => {
    const { tenant, authenticator } = await setup();
    const user = await createPlatformUser(tenant);
    const { credentialId } = await registerPublic(tenant, await sessionFor(tenant, user), authenticator);
    const init = (body: unknown, headers?: Record<string, string>) =>
      publicCall(loginInitialize.POST, tenant, "POST", "/webauthn/login/initialize", {
        body,
        ...(headers ? { headers } : {}),
      });
    await expectError(await init({ user_id: "not-a-uuid" }), 400, /body.user_id/);
    await expectError(await init({ user_id: randomUUID() }), 400, /user not found/);
    await expectError(await init("{"), 400);
    await expectError(await init("{}", { "content-type": "text/plain" }), 415);

    const before = await state(tenant.id);
    for (const body of [{}, { id: credentialId }, "[]"]) {
      await expectError(await finalizeLogin(tenant, body), 400, /body/);
    }
    const options = await loginOptions(tenant);
    const tampered = await authenticator.login(options, {
      origin: ORIGIN,
      overrides: { tamperSignature: true },
    });
    await expectError(await finalizeLogin(tenant, tampered), 401, /failed to validate assertion/);
    // The challenge was used up by the failed attempt.
    const genuine = await authenticator.login(options, { origin: ORIGIN });
    await expectError(await finalizeLogin(tenant, genuine), 401, /failed to get session data/);
    // Another user's handle, or none at all, in a discoverable login.
    const wrongHandle = await authenticator.login(await loginOptions(tenant), {
      origin: ORIGIN,
      overrides: { userHandle: b64url(Buffer.from(randomUUID().replace(/-/g, ""), "hex")) },
    });
    await expectError(await finalizeLogin(tenant, wrongHandle), 401, /does not belong/);
    const noHandle = await authenticator.login(await loginOptions(tenant), {
      origin: ORIGIN,
      overrides: { userHandle: null },
    });
    await expectError(await finalizeLogin(tenant, noHandle), 401, /needs the user handle/);
    const expired = await authenticator.login(await loginOptions(tenant), { origin: ORIGIN });
    await expireChallenges(tenant.id);
    await expectError(await finalizeLogin(tenant, expired), 401, /Expired/);
    expect(await state(tenant.id)).toEqual(before);
    expect((await auditEvents(tenant.id, "webauthn.login.finalize.failed")).length).toBe(5);
    expect((await auditEvents(tenant.id, "webauthn.login.initialize.failed")).length).toBe(1);

    // A replayed assertion (same challenge) is refused after a success.
    const good = await authenticator.login(await loginOptions(tenant), { origin: ORIGIN });
    expect((await finalizeLogin(tenant, good)).status).toBe(200);
    await expectError(await finalizeLogin(tenant, good), 401, /failed to get session data/);
  });

  it("is gone (404) for a tenant on API version 3, like every deprecated endpoint", async () => {
    const { tenant } = await setup();
    const token = await sessionFor(tenant, await createPlatformUser(tenant));
    const v3 = await updateTenant(tenant.id, { platform: { apiVersion: 3 } });
    await expectError(await publicCall(loginInitialize.POST, v3, "POST", "/webauthn/login/initialize"), 404);
    await expectError(
      await publicCall(registrationInitialize.POST, v3, "POST", "/webauthn/registration/initialize", {
        token,
      }),
      404,
    );
    await expectError(await publicCall(credentials.GET, v3, "GET", "/webauthn/credentials", { token }), 404);
    expect(await challengeCount(tenant.id)).toBe(0);
  });

  it("answers the CORS preflight for the tenant's origins with credentials", async () => {
    const { tenant } = await setup();
    const res = await publicCall(
      credential.OPTIONS,
      tenant,
      "OPTIONS",
      "/webauthn/credentials/abc",
      {
        origin: ORIGIN,
        headers: { "access-control-request-method": "PATCH" },
      },
      { id: "abc" },
    );
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("PATCH, DELETE, OPTIONS");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
  });
});
