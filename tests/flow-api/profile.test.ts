import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { saveCredential } from "@/lib/credentials";
import { executor } from "@/lib/db";
import { emails, otpSecrets, passwords, sessions, users, webauthnCredentials } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import type { Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
import { findUser, addUser, type User } from "@/lib/users";
import { act, expectFlowError, expectState, flowIdOf, flowRow, postHref, startFlow } from "../helpers/flows";
import {
  ORIGIN,
  createPasscodeTenant,
  createUserWithEmail,
  sessionFor,
  useDevOutbox,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";
import {
  WebAuthnSoftwareAuthenticator,
  type RegistrationOptionsLike,
} from "../helpers/webauthn-software-authenticator";

useDevOutbox();

interface ProfilePayload {
  user: {
    user_id: string;
    emails: { id: string; address: string; is_verified: boolean; is_primary: boolean }[];
    passkeys: { id: string; name: string; mfa_only: boolean }[];
    security_keys: { id: string; name: string; mfa_only: boolean }[];
    mfa_config: { auth_app_set_up: boolean; totp_enabled: boolean; security_keys_enabled: boolean };
    username?: { username: string };
  };
  sessions: {
    id: string;
    user_agent?: string;
    user_agent_raw?: string;
    ip_address?: string;
    created_at: string;
    last_used: string;
    current: boolean;
    expires_at: string;
  }[];
}

const payloadOf = (state: FlowResponse) => state.payload as unknown as ProfilePayload;
const addresses = (state: FlowResponse) => payloadOf(state).user.emails.map((email) => email.address);

/** A tenant whose passcode rate limit stays out of the way, with these platform settings. */
const tenantWith = (platform: UpdateTenantInput["platform"] = {}) => createPasscodeTenant({ platform });

/** A platform user (no external id, as sign-up creates them) with a verified primary address. */
async function platformUser(tenant: Tenant, address = `${randomUUID()}@example.com`): Promise<User> {
  const user = await addUser(tenant.id);
  await addEmail(tenant, user, address, { verified: true, primary: true });
  return user;
}

async function addEmail(
  tenant: Tenant,
  user: User,
  address: string,
  { verified = true, primary = false } = {},
): Promise<string> {
  const db = await executor();
  const [row] = await db
    .insert(emails)
    .values({ tenantId: tenant.id, userId: user.id, address, verified, isPrimary: primary })
    .returning();
  return row!.id;
}

/** A credential row (not usable for a ceremony): for ids that belong to someone. */
async function storedCredential(tenant: Tenant, user: User, mfa: boolean): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  await saveCredential({
    tenantId: tenant.id,
    id,
    userId: user.id,
    name: mfa ? "fixture key" : "fixture passkey",
    publicKey: "AQ",
    aaguid: "00000000-0000-0000-0000-000000000000",
    attestationType: "none",
    backupEligible: false,
    backupState: false,
    userVerified: true,
    isMfa: mfa,
  });
  return id;
}

/** Everything of the user a profile step may change, to check that a refused one changed nothing. */
async function dataOf(tenant: Tenant, user: User) {
  const db = await executor();
  const mine = <T extends { tenantId: unknown; userId: unknown }>(table: T) =>
    and(eq(table.tenantId as never, tenant.id), eq(table.userId as never, user.id));
  return {
    user: await db.select().from(users).where(eq(users.id, user.id)),
    emails: await db.select().from(emails).where(mine(emails)).orderBy(asc(emails.address)),
    credentials: await db
      .select()
      .from(webauthnCredentials)
      .where(mine(webauthnCredentials))
      .orderBy(asc(webauthnCredentials.id)),
    password: await db.select().from(passwords).where(mine(passwords)),
    otp: await db.select().from(otpSecrets).where(mine(otpSecrets)),
    sessions: await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(mine(sessions))
      .orderBy(asc(sessions.id)),
  };
}

/** preflight → register_client_capabilities → profile_init, as the elements run it. */
async function openProfile(tenant: Tenant, token: string, webauthn = true): Promise<FlowResponse> {
  const start = expectState(await startFlow(tenant, "profile", { token }), "preflight", [
    "register_client_capabilities",
  ]);
  const capabilities = { webauthn_available: webauthn };
  return expectState(
    await act(tenant, start, "register_client_capabilities", capabilities, { token }),
    "profile_init",
  );
}

/** Runs an action signed in with `token`. */
const run = (
  tenant: Tenant,
  token: string,
  state: FlowResponse,
  action: string,
  input: Record<string, unknown> = {},
) => act(tenant, state, action, input, { token });

/** A refused step with `code` on `field`: the state and the user's data are kept. */
async function expectInputError(
  tenant: Tenant,
  token: string,
  user: User,
  state: FlowResponse,
  [action, input]: [string, Record<string, unknown>],
  field: string,
  code: string,
): Promise<FlowResponse> {
  const before = await dataOf(tenant, user);
  const body = expectFlowError(
    await run(tenant, token, state, action, input),
    "form_data_invalid_error",
    400,
    state.name,
  );
  expect(body.actions[action]?.inputs[field]?.error?.code).toBe(code);
  expect(await dataOf(tenant, user)).toEqual(before);
  expect((await flowRow(tenant, flowIdOf(state))).state).toBe(state.name);
  return body;
}

/** A refused step answered with `code` and `status` in the same state; the user's data is kept. */
async function expectRefused(
  tenant: Tenant,
  token: string,
  user: User,
  state: FlowResponse,
  [action, input]: [string, Record<string, unknown>],
  code: string,
  status: number,
): Promise<FlowResponse> {
  const before = await dataOf(tenant, user);
  const body = expectFlowError(await run(tenant, token, state, action, input), code, status, state.name);
  expect(await dataOf(tenant, user)).toEqual(before);
  return body;
}

/** Creates a passkey (or a security key) with the software authenticator, back on profile_init. */
async function createCredential(
  tenant: Tenant,
  token: string,
  state: FlowResponse,
  authenticator: WebAuthnSoftwareAuthenticator,
  action: "webauthn_credential_create" | "security_key_create" = "webauthn_credential_create",
) {
  const verification = expectState(
    await run(tenant, token, state, action),
    "webauthn_credential_verification",
    ["webauthn_verify_attestation_response", "back"],
  );
  const { publicKey } = (verification.payload as { creation_options: { publicKey: RegistrationOptionsLike } })
    .creation_options;
  const response = await authenticator.register(publicKey, { origin: ORIGIN });
  const done = expectState(
    await run(tenant, token, verification, "webauthn_verify_attestation_response", { public_key: response }),
    "profile_init",
  );
  return { done, id: response.id, publicKey };
}

const auditTypes = async (tenant: Tenant) =>
  (await listAuditEvents(tenant.id, { limit: 200 })).items.map((event) => event.type);

describe("profile flow: session and start", () => {
  it("is refused without a session and with an invalid token, in the flow error shape", async () => {
    const tenant = await tenantWith();
    expectFlowError(await startFlow(tenant, "profile"), "unauthorized", 401);
    expectFlowError(await startFlow(tenant, "profile", { token: "not-a-jwt" }), "unauthorized", 401);
    const other = await tenantWith();
    const foreign = await sessionFor(other, await platformUser(other));
    expectFlowError(await startFlow(tenant, "profile", { token: foreign }), "unauthorized", 401);
  });

  it("lands on profile_init with the user, the sessions and only the actions that apply", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const older = await sessionFor(tenant, user);
    const token = await sessionFor(tenant, user);
    const state = await openProfile(tenant, token);
    expect(Object.keys(state.actions).sort()).toEqual([
      "continue_to_otp_secret_creation",
      "email_create",
      "email_delete",
      "patch_metadata",
      "security_key_create",
      "session_delete",
      "webauthn_credential_create",
    ]);
    expect(state.actions.email_create!.inputs.email).toEqual({
      name: "email",
      type: "email",
      required: true,
      max_length: 254,
    });

    const { user: shown, sessions: listed } = payloadOf(state);
    expect(shown.user_id).toBe(user.id);
    expect(shown.emails).toHaveLength(1);
    expect(shown.emails[0]).toMatchObject({ is_primary: true, is_verified: true });
    expect(shown.mfa_config).toEqual({
      auth_app_set_up: false,
      totp_enabled: true,
      security_keys_enabled: true,
    });
    expect(listed).toHaveLength(2);
    const current = listed.find((session) => session.current)!;
    const other = listed.find((session) => !session.current)!;
    expect(current).toMatchObject({ user_agent_raw: "vitest", ip_address: "127.0.0.1" });
    expect(Date.parse(current.expires_at)).toBeGreaterThan(Date.now());
    expect(Date.parse(current.last_used)).toBeGreaterThanOrEqual(Date.parse(current.created_at));
    expect(state.actions.session_delete!.inputs.session_id!.allowed_values).toEqual([
      { value: other.id, name: other.id },
    ]);
    expect(older).not.toBe(token);

    const row = await flowRow(tenant, flowIdOf(state));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeCloseTo(3600_000, -4);
    expect(await auditTypes(tenant)).toContain("flow.profile.register_client_capabilities.succeeded");
  });

  it("works with the session cookie and leaves out WebAuthn actions when the browser cannot run them", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const cookie = await sessionFor(tenant, user);
    let start = expectState(await startFlow(tenant, "profile", { cookie }), "preflight");
    const missing = await act(tenant, start, "register_client_capabilities", {}, { cookie });
    start = expectFlowError(missing, "form_data_invalid_error", 400, "preflight");
    expect(start.actions.register_client_capabilities!.inputs.webauthn_available!.error?.code).toBe(
      "value_missing_error",
    );
    const state = expectState(
      await act(tenant, start, "register_client_capabilities", { webauthn_available: false }, { cookie }),
      "profile_init",
    );
    expect(state.actions.webauthn_credential_create).toBeUndefined();
    expect(state.actions.security_key_create).toBeUndefined();
    expect(payloadOf(state).user.user_id).toBe(user.id);
  });

  it("refuses the next step once the session is revoked, and another user's session with the flow's CSRF token", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    const state = await openProfile(tenant, token);
    const id = flowIdOf(state);
    const before = await flowRow(tenant, id);

    const intruder = await sessionFor(tenant, await platformUser(tenant));
    expectFlowError(
      await act(tenant, state, "email_create", { email: "x@example.com" }, { token: intruder }),
      "unauthorized",
      401,
    );
    expect(await flowRow(tenant, id)).toEqual(before);

    const db = await executor();
    await db.delete(sessions).where(eq(sessions.userId, user.id));
    expectFlowError(
      await run(tenant, token, state, "email_create", { email: "x@example.com" }),
      "unauthorized",
      401,
    );
    expect(await flowRow(tenant, id)).toEqual(before);
    expect((await dataOf(tenant, user)).emails).toHaveLength(1);
  });

  it("refuses a wrong or reused CSRF token and actions not offered, leaving the flow as it was", async () => {
    const tenant = await tenantWith({ emails: { requireVerification: false } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    const state = await openProfile(tenant, token);
    const id = flowIdOf(state);

    const next = expectState(
      await run(tenant, token, state, "email_create", { email: `${randomUUID()}@example.com` }),
      "profile_init",
    );
    const before = await flowRow(tenant, id);
    const reused = await run(tenant, token, state, "email_create", { email: "again@example.com" });
    expectFlowError(reused, "operation_not_permitted_error", 403);
    const wrong = await postHref(
      tenant,
      next.actions.email_create!.href,
      { input_data: { email: "again@example.com" }, csrf_token: "x".repeat(32) },
      { token },
    );
    expectFlowError(wrong, "operation_not_permitted_error", 403);
    // account_delete is not offered (deletion disabled), nor is verify_passcode in profile_init.
    for (const action of ["account_delete", "verify_passcode", "otp_code_verify"]) {
      const href = `/profile?action=${action}%40${id}`;
      const refused = await postHref(
        tenant,
        href,
        { input_data: {}, csrf_token: next.csrf_token },
        { token },
      );
      expectFlowError(refused, "operation_not_permitted_error", 403);
    }
    expect(await flowRow(tenant, id)).toEqual(before);
    expect(await findUser(tenant.id, user.id)).toBeDefined();
  });
});

describe("profile flow: email addresses", () => {
  it("adds an address unverified when the tenant does not require verification, within the maximum", async () => {
    const tenant = await tenantWith({ emails: { requireVerification: false, maxPerUser: 2 } });
    const user = await platformUser(tenant);
    const taken = `${randomUUID()}@example.com`;
    await platformUser(tenant, taken);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    const own = addresses(state)[0]!;

    const create = (email: unknown): [string, Record<string, unknown>] => ["email_create", { email }];
    state = await expectInputError(tenant, token, user, state, create(own), "email", "email_already_exists");
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create(taken),
      "email",
      "email_already_exists",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("nope"),
      "email",
      "value_invalid_error",
    );
    state = await expectInputError(tenant, token, user, state, create(""), "email", "value_missing_error");
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create(`${"a".repeat(250)}@example.com`),
      "email",
      "value_too_long_error",
    );

    const address = `${randomUUID()}@Example.com`;
    state = expectState(await run(tenant, token, state, "email_create", { email: address }), "profile_init");
    const added = payloadOf(state).user.emails.find((email) => email.address === address.toLowerCase());
    expect(added).toMatchObject({ is_verified: false, is_primary: false });
    expect(await auditTypes(tenant)).toContain("email.create.succeeded");
    // Two of two: no more addresses; the new one can be verified, made primary or deleted.
    expect(state.actions.email_create).toBeUndefined();
    expect(Object.keys(state.actions)).toEqual(
      expect.arrayContaining(["email_delete", "email_set_primary", "email_verify"]),
    );
  });

  it("adds an address verified only after the code mailed to it, and not at all after back", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);

    const address = `${randomUUID()}@example.com`;
    const confirm = expectState(
      await run(tenant, token, state, "email_create", { email: address }),
      "passcode_confirmation",
      ["verify_passcode", "resend_passcode", "back"],
    );
    expect(confirm.payload).toEqual({ passcode_resent: false, resend_after: 30 });
    expect((await dataOf(tenant, user)).emails).toHaveLength(1);
    const code = await outboxCode(tenant.id, address);
    const early = await expectRefused(
      tenant,
      token,
      user,
      confirm,
      ["resend_passcode", {}],
      "rate_limit_exceeded",
      429,
    );
    expect(early.payload).toEqual(confirm.payload);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await expectInputError(
      tenant,
      token,
      user,
      early,
      ["verify_passcode", { code: wrong }],
      "code",
      "passcode_invalid",
    );
    state = expectState(await run(tenant, token, refused, "verify_passcode", { code }), "profile_init");
    expect(payloadOf(state).user.emails.find((email) => email.address === address)).toMatchObject({
      is_verified: true,
      is_primary: false,
    });

    const other = `${randomUUID()}@example.com`;
    const second = expectState(
      await run(tenant, token, state, "email_create", { email: other }),
      "passcode_confirmation",
    );
    state = expectState(await run(tenant, token, second, "back"), "profile_init");
    expect(addresses(state)).not.toContain(other);
    expect(state.actions.back).toBeUndefined();
  });

  it("verifies an unverified address with a code, and answers not_found for another user's address", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const address = `${randomUUID()}@example.com`;
    const emailId = await addEmail(tenant, user, address, { verified: false });
    const stranger = await platformUser(tenant);
    const foreignId = await addEmail(tenant, stranger, `${randomUUID()}@example.com`, { verified: false });
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    expect(state.actions.email_verify!.inputs.email_id).toMatchObject({ required: true, hidden: true });

    state = await expectRefused(
      tenant,
      token,
      user,
      state,
      ["email_verify", { email_id: foreignId }],
      "not_found",
      404,
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      ["email_verify", {}],
      "email_id",
      "value_missing_error",
    );
    const confirm = expectState(
      await run(tenant, token, state, "email_verify", { email_id: emailId }),
      "passcode_confirmation",
    );
    const code = await outboxCode(tenant.id, address);
    state = expectState(await run(tenant, token, confirm, "verify_passcode", { code }), "profile_init");
    expect(payloadOf(state).user.emails.find((email) => email.id === emailId)?.is_verified).toBe(true);
    expect(state.actions.email_verify).toBeUndefined();
    expect(await auditTypes(tenant)).toContain("email.verified");
  });

  it("makes a verified address primary; refuses an unverified one and another user's", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const verifiedId = await addEmail(tenant, user, `${randomUUID()}@example.com`);
    const unverifiedId = await addEmail(tenant, user, `${randomUUID()}@example.com`, { verified: false });
    const foreignId = await addEmail(tenant, await platformUser(tenant), `${randomUUID()}@example.com`);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);

    const setPrimary = (id: string): [string, Record<string, unknown>] => [
      "email_set_primary",
      { email_id: id },
    ];
    state = await expectRefused(tenant, token, user, state, setPrimary(foreignId), "not_found", 404);
    state = await expectRefused(
      tenant,
      token,
      user,
      state,
      setPrimary(unverifiedId),
      "operation_not_permitted_error",
      403,
    );
    state = expectState(await run(tenant, token, state, ...setPrimary(verifiedId)), "profile_init");
    const primary = payloadOf(state).user.emails.filter((email) => email.is_primary);
    expect(primary.map((email) => email.id)).toEqual([verifiedId]);
  });

  it("deletes a secondary address: only those are offered, the primary and another user's are refused", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const secondary = `${randomUUID()}@example.com`;
    const secondaryId = await addEmail(tenant, user, secondary);
    const foreignId = await addEmail(tenant, await platformUser(tenant), `${randomUUID()}@example.com`);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    const primaryId = payloadOf(state).user.emails.find((email) => email.is_primary)!.id;
    expect(state.actions.email_delete!.inputs.email_id!.allowed_values).toEqual([
      { value: secondaryId, name: secondary },
    ]);

    const remove = (id: string): [string, Record<string, unknown>] => ["email_delete", { email_id: id }];
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      remove(primaryId),
      "email_id",
      "value_invalid_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      remove(foreignId),
      "email_id",
      "value_invalid_error",
    );
    state = expectState(await run(tenant, token, state, ...remove(secondaryId)), "profile_init");
    expect(payloadOf(state).user.emails.map((email) => email.id)).toEqual([primaryId]);
    // Still offered (Hanko's elements read it for every address), but the primary one is not deletable.
    expect(state.actions.email_delete!.inputs.email_id!.allowed_values).toEqual([]);
    expect(state.actions.email_set_primary).toBeUndefined();
    expect(await auditTypes(tenant)).toContain("email.delete.succeeded");
  });
});

describe("profile flow: passkeys and security keys", () => {
  it("creates a passkey with the authenticator, renames and deletes it; refuses bad responses", async () => {
    const tenant = await tenantWith({ passkeys: { optional: true } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    let state = await openProfile(tenant, token);

    // A malformed response is an input error; one from another origin is passkey_invalid.
    let verification = expectState(
      await run(tenant, token, state, "webauthn_credential_create"),
      "webauthn_credential_verification",
    );
    type Options = RegistrationOptionsLike & { authenticatorSelection: Record<string, unknown> };
    const { publicKey } = (verification.payload as { creation_options: { publicKey: Options } })
      .creation_options;
    expect(publicKey.user.id).toBe(Buffer.from(user.id.replace(/-/g, ""), "hex").toString("base64url"));
    expect(publicKey.authenticatorSelection).toMatchObject({ residentKey: "required" });
    verification = await expectInputError(
      tenant,
      token,
      user,
      verification,
      ["webauthn_verify_attestation_response", { public_key: { id: "x" } }],
      "public_key",
      "value_invalid_error",
    );
    const forged = await authenticator.register(publicKey, {
      origin: "https://evil.example",
    });
    verification = await expectRefused(
      tenant,
      token,
      user,
      verification,
      ["webauthn_verify_attestation_response", { public_key: forged }],
      "passkey_invalid",
      401,
    );
    state = expectState(await run(tenant, token, verification, "back"), "profile_init");

    const { done, id } = await createCredential(tenant, token, state, authenticator);
    state = done;
    expect(payloadOf(state).user.passkeys.map((passkey) => passkey.id)).toEqual([id]);
    expect(payloadOf(state).user.passkeys[0]!.mfa_only).toBe(false);
    expect((await dataOf(tenant, user)).credentials).toMatchObject([{ id, isMfa: false }]);

    const rename = (input: Record<string, unknown>): [string, Record<string, unknown>] => [
      "webauthn_credential_rename",
      input,
    ];
    const foreignId = await storedCredential(tenant, await platformUser(tenant), false);
    state = await expectRefused(
      tenant,
      token,
      user,
      state,
      rename({ passkey_id: foreignId, passkey_name: "mine now" }),
      "not_found",
      404,
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      rename({ passkey_id: id }),
      "passkey_name",
      "value_missing_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      rename({ passkey_id: id, passkey_name: "n".repeat(256) }),
      "passkey_name",
      "value_too_long_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      rename({ passkey_name: "Laptop" }),
      "passkey_id",
      "value_missing_error",
    );
    state = expectState(
      await run(tenant, token, state, ...rename({ passkey_id: id, passkey_name: "  Laptop " })),
      "profile_init",
    );
    expect(payloadOf(state).user.passkeys[0]!.name).toBe("Laptop");

    const foreignKey = await storedCredential(tenant, user, true);
    state = expectState(
      await run(tenant, token, state, "webauthn_credential_rename", {
        passkey_id: foreignKey,
        passkey_name: "My key",
      }),
      "profile_init",
    );
    expect(payloadOf(state).user.security_keys[0]!.name).toBe("My key");

    const remove = (passkeyId: string): [string, Record<string, unknown>] => [
      "webauthn_credential_delete",
      { passkey_id: passkeyId },
    ];
    state = await expectRefused(tenant, token, user, state, remove(foreignId), "not_found", 404);
    // A security key is not a passkey: security_key_delete removes it.
    state = await expectRefused(tenant, token, user, state, remove(foreignKey), "not_found", 404);
    state = expectState(await run(tenant, token, state, ...remove(id)), "profile_init");
    expect(payloadOf(state).user.passkeys).toEqual([]);
    expect((await dataOf(tenant, user)).credentials.map((row) => row.id)).toEqual([foreignKey]);
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining([
        "webauthn.registration.finalize.succeeded",
        "webauthn.credential.update.succeeded",
        "webauthn.credential.delete.succeeded",
      ]),
    );
  });

  it("keeps the last passkey when passkeys are not optional", async () => {
    const tenant = await tenantWith({ passkeys: { optional: false } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    await storedCredential(tenant, user, false);
    let state = await openProfile(tenant, token);
    expect(state.actions.webauthn_credential_delete).toBeUndefined();
    expect(state.actions.webauthn_credential_rename).toBeDefined();

    const { done } = await createCredential(tenant, token, state, new WebAuthnSoftwareAuthenticator());
    state = done;
    expect(state.actions.webauthn_credential_delete).toBeDefined();
  });

  it("creates a security key under the MFA policy and deletes it; passkey ids and other users' keys are not found", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    expect(state.actions.security_key_delete).toBeUndefined();

    const { done, id, publicKey } = await createCredential(
      tenant,
      token,
      state,
      new WebAuthnSoftwareAuthenticator(),
      "security_key_create",
    );
    expect((publicKey as unknown as Record<string, unknown>).authenticatorSelection).toMatchObject({
      authenticatorAttachment: "cross-platform",
      residentKey: "discouraged",
      userVerification: "preferred",
    });
    state = done;
    expect(payloadOf(state).user.security_keys.map((key) => [key.id, key.mfa_only])).toEqual([[id, true]]);
    expect(payloadOf(state).user.passkeys).toEqual([]);
    expect((await dataOf(tenant, user)).credentials).toMatchObject([{ id, isMfa: true }]);
    expect(await auditTypes(tenant)).toContain("webauthn.security_key.finalize.succeeded");

    const passkeyId = await storedCredential(tenant, user, false);
    const foreignKey = await storedCredential(tenant, await platformUser(tenant), true);
    const remove = (keyId: string): [string, Record<string, unknown>] => [
      "security_key_delete",
      { security_key_id: keyId },
    ];
    state = await expectRefused(tenant, token, user, state, remove(passkeyId), "not_found", 404);
    state = await expectRefused(tenant, token, user, state, remove(foreignKey), "not_found", 404);
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      ["security_key_delete", {}],
      "security_key_id",
      "value_missing_error",
    );
    state = expectState(await run(tenant, token, state, ...remove(id)), "profile_init");
    expect(payloadOf(state).user.security_keys).toEqual([]);
    expect(state.actions.security_key_delete).toBeUndefined();
  });

  it("does not offer security keys when the tenant's MFA has none", async () => {
    const tenant = await tenantWith({ mfa: { securityKeys: false } });
    const token = await sessionFor(tenant, await platformUser(tenant));
    const state = await openProfile(tenant, token);
    expect(state.actions.security_key_create).toBeUndefined();
    expect(payloadOf(state).user.mfa_config.security_keys_enabled).toBe(false);
  });
});

describe("profile flow: password and username", () => {
  it("sets, changes and deletes the password within the tenant's length rules", async () => {
    const tenant = await tenantWith({ password: { enabled: true, minLength: 10 } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    expect(state.actions.password_update).toBeUndefined();
    expect(state.actions.password_delete).toBeUndefined();
    expect(state.actions.password_create!.inputs.password).toEqual({
      name: "password",
      type: "password",
      required: true,
      min_length: 10,
      max_length: 128,
    });

    const create = (password: unknown): [string, Record<string, unknown>] => [
      "password_create",
      { password },
    ];
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("short"),
      "password",
      "value_too_short_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("x".repeat(129)),
      "password",
      "value_too_long_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create(undefined),
      "password",
      "value_missing_error",
    );
    state = expectState(await run(tenant, token, state, ...create(" first password ")), "profile_init");
    const [first] = (await dataOf(tenant, user)).password;
    expect(first).toBeDefined();
    expect(state.actions.password_create).toBeUndefined();

    // security 12: a changed password ends the user's other sessions, not the caller's.
    await sessionFor(tenant, user);
    expect((await dataOf(tenant, user)).sessions).toHaveLength(2);
    state = expectState(
      await run(tenant, token, state, "password_update", { password: "second password" }),
      "profile_init",
    );
    const [second] = (await dataOf(tenant, user)).password;
    expect(second!.hash).not.toBe(first!.hash);
    expect((await dataOf(tenant, user)).sessions).toEqual([{ id: decodeJwt(token).session_id }]);

    // Passcodes log the user in too, so the password may go.
    state = expectState(await run(tenant, token, state, "password_delete"), "profile_init");
    expect((await dataOf(tenant, user)).password).toEqual([]);
    expect(state.actions.password_create).toBeDefined();
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining(["password.set.succeeded", "password.delete.succeeded"]),
    );
  });

  it("keeps the password when it is the only way to log in, and offers none when passwords are off", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passcodes: { enabled: false } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    state = expectState(
      await run(tenant, token, state, "password_create", { password: "a good password" }),
      "profile_init",
    );
    expect(state.actions.password_update).toBeDefined();
    expect(state.actions.password_delete).toBeUndefined();

    const off = await tenantWith();
    const offState = await openProfile(off, await sessionFor(off, await platformUser(off)));
    for (const action of ["password_create", "password_update", "password_delete"]) {
      expect(offState.actions[action]).toBeUndefined();
    }
  });

  it("sets, changes and deletes the username: unique, well-formed, within the tenant's lengths", async () => {
    const tenant = await tenantWith({ username: { enabled: true, minLength: 3, maxLength: 16 } });
    const user = await platformUser(tenant);
    const holder = await platformUser(tenant);
    const db = await executor();
    await db.update(users).set({ username: "alice" }).where(eq(users.id, holder.id));
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    expect(state.actions.username_update).toBeUndefined();
    expect(state.actions.username_delete).toBeUndefined();
    expect(state.actions.username_create!.inputs.username).toMatchObject({
      required: true,
      min_length: 3,
      max_length: 16,
    });

    const create = (username: unknown): [string, Record<string, unknown>] => [
      "username_create",
      { username },
    ];
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("Alice"),
      "username",
      "username_already_exists",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("no spaces"),
      "username",
      "invalid_username_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create(".dot"),
      "username",
      "invalid_username_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("ab"),
      "username",
      "value_too_short_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      create("a".repeat(17)),
      "username",
      "value_too_long_error",
    );
    state = await expectInputError(tenant, token, user, state, create(""), "username", "value_missing_error");

    state = expectState(await run(tenant, token, state, ...create(" Bob.Smith ")), "profile_init");
    expect(payloadOf(state).user.username?.username).toBe("bob.smith");
    expect(state.actions.username_create).toBeUndefined();
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      ["username_update", { username: "ALICE" }],
      "username",
      "username_already_exists",
    );
    state = expectState(
      await run(tenant, token, state, "username_update", { username: "bob_2" }),
      "profile_init",
    );
    expect((await findUser(tenant.id, user.id))?.username).toBe("bob_2");
    state = expectState(await run(tenant, token, state, "username_delete"), "profile_init");
    expect((await findUser(tenant.id, user.id))?.username).toBeNull();
    expect(payloadOf(state).user.username).toBeUndefined();
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining(["username.changed", "username.deleted"]),
    );
  });

  it("keeps a required username, and offers no username actions to a Passkey API user or with usernames off", async () => {
    const tenant = await tenantWith({ username: { enabled: true, required: true } });
    const user = await platformUser(tenant);
    const db = await executor();
    await db.update(users).set({ username: "carol" }).where(eq(users.id, user.id));
    const state = await openProfile(tenant, await sessionFor(tenant, user));
    expect(state.actions.username_update).toBeDefined();
    expect(state.actions.username_delete).toBeUndefined();

    const external = await createUserWithEmail(tenant);
    const externalState = await openProfile(tenant, await sessionFor(tenant, external));
    expect(externalState.actions.username_create).toBeUndefined();

    const off = await tenantWith();
    const offState = await openProfile(off, await sessionFor(off, await platformUser(off)));
    expect(offState.actions.username_create).toBeUndefined();
  });
});

describe("profile flow: authenticator app (TOTP)", () => {
  const codeFor = (secret: string, offsetSteps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
      timestamp: Date.now() + offsetSteps * 30_000,
    });

  it("sets up a TOTP secret only with a correct code, and deletes it", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    let state = await openProfile(tenant, token);
    expect(state.actions.otp_secret_delete).toBeUndefined();

    let setup = expectState(
      await run(tenant, token, state, "continue_to_otp_secret_creation"),
      "mfa_otp_secret_creation",
      ["otp_code_verify", "back"],
    );
    const first = setup.payload as { otp_secret: string; otp_image_source: string };
    expect(first.otp_secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.otp_image_source).toMatch(/^data:image\/png;base64,/);
    state = expectState(await run(tenant, token, setup, "back"), "profile_init");
    expect((await dataOf(tenant, user)).otp).toEqual([]);

    setup = expectState(
      await run(tenant, token, state, "continue_to_otp_secret_creation"),
      "mfa_otp_secret_creation",
    );
    const { otp_secret: secret } = setup.payload as { otp_secret: string };
    expect(secret).not.toBe(first.otp_secret);
    const verify = (otp_code: unknown): [string, Record<string, unknown>] => [
      "otp_code_verify",
      { otp_code },
    ];
    // A code of the abandoned secret, of a far-off time step, or malformed: refused, nothing saved.
    const wrong = codeFor(first.otp_secret);
    setup = await expectInputError(tenant, token, user, setup, verify(wrong), "otp_code", "otp_code_invalid");
    expect(setup.payload).toMatchObject({ otp_secret: secret });
    setup = await expectInputError(
      tenant,
      token,
      user,
      setup,
      verify(codeFor(secret, 10)),
      "otp_code",
      "otp_code_invalid",
    );
    setup = await expectInputError(
      tenant,
      token,
      user,
      setup,
      verify("12345"),
      "otp_code",
      "value_too_short_error",
    );
    setup = await expectInputError(
      tenant,
      token,
      user,
      setup,
      verify("abcdef"),
      "otp_code",
      "otp_code_invalid",
    );
    setup = await expectInputError(
      tenant,
      token,
      user,
      setup,
      verify(undefined),
      "otp_code",
      "value_missing_error",
    );

    state = expectState(await run(tenant, token, setup, ...verify(codeFor(secret))), "profile_init");
    expect(payloadOf(state).user.mfa_config.auth_app_set_up).toBe(true);
    expect((await dataOf(tenant, user)).otp).toHaveLength(1);
    expect(state.actions.continue_to_otp_secret_creation).toBeUndefined();
    expect(await auditTypes(tenant)).toContain("otp_secret.created");

    state = expectState(await run(tenant, token, state, "otp_secret_delete"), "profile_init");
    expect(payloadOf(state).user.mfa_config.auth_app_set_up).toBe(false);
    expect((await dataOf(tenant, user)).otp).toEqual([]);
    expect(state.actions.continue_to_otp_secret_creation).toBeDefined();
  });

  it("does not offer an authenticator app when the tenant's MFA is off", async () => {
    const tenant = await tenantWith({ mfa: { enabled: false } });
    const state = await openProfile(tenant, await sessionFor(tenant, await platformUser(tenant)));
    expect(state.actions.continue_to_otp_secret_creation).toBeUndefined();
    expect(state.actions.security_key_create).toBeUndefined();
  });
});

describe("profile flow: sessions and account", () => {
  it("ends another session of the user; the current one and other users' are refused", async () => {
    const tenant = await tenantWith();
    const user = await platformUser(tenant);
    const other = await sessionFor(tenant, user);
    const token = await sessionFor(tenant, user);
    const stranger = await platformUser(tenant);
    await sessionFor(tenant, stranger);
    let state = await openProfile(tenant, token);
    const { sessions: listed } = payloadOf(state);
    const currentId = listed.find((session) => session.current)!.id;
    const otherId = listed.find((session) => !session.current)!.id;
    const [strangerSession] = (await dataOf(tenant, stranger)).sessions;

    const end = (id: unknown): [string, Record<string, unknown>] => ["session_delete", { session_id: id }];
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      end(currentId),
      "session_id",
      "value_invalid_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      end(strangerSession!.id),
      "session_id",
      "value_invalid_error",
    );
    state = await expectInputError(
      tenant,
      token,
      user,
      state,
      end(undefined),
      "session_id",
      "value_missing_error",
    );
    expect((await dataOf(tenant, stranger)).sessions).toHaveLength(1);

    state = expectState(await run(tenant, token, state, ...end(otherId)), "profile_init");
    expect(payloadOf(state).sessions.map((session) => session.id)).toEqual([currentId]);
    expect(state.actions.session_delete).toBeUndefined();
    expectFlowError(await startFlow(tenant, "profile", { token: other }), "unauthorized", 401);
    expect(await auditTypes(tenant)).toContain("session.revoked");
  });

  it("deletes the account: account_deleted, the user gone, the cookie cleared, the flow over", async () => {
    const tenant = await tenantWith({ account: { allowDeletion: true } });
    const user = await platformUser(tenant);
    const token = await sessionFor(tenant, user);
    const state = await openProfile(tenant, token);
    expect(state.actions.account_delete!.inputs).toEqual({});

    const deleted = await run(tenant, token, state, "account_delete");
    const body = expectState(deleted, "account_deleted", []);
    expect(body.payload).toEqual({});
    const cookie = deleted.res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^hanko=;/);
    expect(cookie).toContain("Max-Age=0");
    expect(await findUser(tenant.id, user.id)).toBeUndefined();
    expect(await dataOf(tenant, user)).toMatchObject({ emails: [], sessions: [], credentials: [] });
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining(["user.deleted", "flow.profile.account_delete.succeeded"]),
    );
    expectFlowError(await startFlow(tenant, "profile", { token }), "unauthorized", 401);
  });
});
