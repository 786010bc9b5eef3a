import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as finalizeRoute from "@/app/(flow-api)/t/[tenantId]/flow/[flow]/finalize/route";
import * as initializeRoute from "@/app/(flow-api)/t/[tenantId]/flow/[flow]/initialize/route";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import { listAuditEvents } from "@/lib/audit";
import { finalizePublicRegistration, initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import {
  issueCreationOptions,
  storeRegisteredCredential,
  verifyRegistration,
} from "@/lib/ceremonies/webauthn/registration";
import { executor } from "@/lib/db";
import {
  emails,
  flows,
  passwords,
  sessions,
  users,
  webauthnChallenges,
  webauthnCredentials,
} from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { MAX_FAILED_ATTEMPTS } from "@/lib/passwords";
import { setPasswordOfSelf } from "@/lib/accounts";
import type { Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
import { findUser, addUser, type User } from "@/lib/users";
import { call } from "../helpers/http";
import {
  act,
  expectFlowError,
  expectState,
  flowIdOf,
  flowRow,
  postHref,
  sessionCookieOf,
  startFlow,
  type FlowCall,
} from "../helpers/flows";
import {
  ORIGIN,
  TEST_CONTEXT,
  createPasscodeTenant,
  createPublicTenant,
  createUserWithEmail,
  publicCall,
  useDevOutbox,
  validateSessionCookie,
} from "../helpers/public-api";
import { CAPABILITIES, actNotOffered, addTotp, identify, loginInit, totpCode } from "../helpers/login";
import { outboxCode } from "../helpers/smtp";
import { WebAuthnSoftwareAuthenticator } from "../helpers/webauthn-software-authenticator";

useDevOutbox();

const PASSWORD = "correct horse battery staple";

interface RequestOptionsPayload {
  request_options: {
    publicKey: {
      challenge: string;
      rpId: string;
      allowCredentials?: { id: string }[];
      userVerification: string;
    };
  };
}
interface SuccessPayload {
  user: { user_id: string; emails: { address: string; is_verified: boolean }[] };
  claims: { subject: string; amr: string[]; username?: string };
  last_login: { login_method: string; mfa_method?: string };
}

const publicKeyOf = (state: FlowResponse) =>
  (state.payload as unknown as RequestOptionsPayload).request_options.publicKey;
const successOf = (state: FlowResponse) => state.payload as unknown as SuccessPayload;

/** A tenant whose passcodes are not rate limited, with these platform settings. */
function tenantWith(platform: NonNullable<UpdateTenantInput["platform"]> = {}): Promise<Tenant> {
  return createPasscodeTenant({ platform });
}

/** A platform user (no external id), with a username and a primary address when given. */
async function platformUser(
  tenant: Tenant,
  options: { username?: string; address?: string; verified?: boolean } = {},
): Promise<User> {
  const user = await addUser(tenant.id);
  const db = await executor();
  if (options.username)
    await db.update(users).set({ username: options.username }).where(eq(users.id, user.id));
  if (options.address) {
    await db.insert(emails).values({
      tenantId: tenant.id,
      userId: user.id,
      address: options.address,
      verified: options.verified ?? true,
      isPrimary: true,
    });
  }
  return (await findUser(tenant.id, user.id))!;
}

const address = () => `${randomUUID()}@example.com`;

async function userWithPassword(tenant: Tenant, mail = address()): Promise<{ user: User; mail: string }> {
  const user = await createUserWithEmail(tenant, mail);
  await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
  return { user, mail };
}

/** A passkey through the public API's registration ceremony (signed by the software authenticator). */
async function addPasskey(
  tenant: Tenant,
  user: User,
  authenticator: WebAuthnSoftwareAuthenticator,
): Promise<string> {
  const options = await initializePublicRegistration(tenant, user, TEST_CONTEXT);
  const response = await authenticator.register(options, { origin: ORIGIN });
  await finalizePublicRegistration(tenant, user, response, TEST_CONTEXT);
  return response.id;
}

/** A security key (MFA only) through a real `mfa-registration` ceremony: attestation verified, then stored. */
async function addSecurityKey(
  tenant: Tenant,
  user: User,
  authenticator: WebAuthnSoftwareAuthenticator,
): Promise<string> {
  const options = await issueCreationOptions(tenant, "mfa-registration", user, {
    userName: "key",
    displayName: "key",
  });
  const response = await authenticator.register(options, { origin: ORIGIN });
  const verified = await verifyRegistration(tenant, "mfa-registration", response, { userId: user.id });
  await storeRegisteredCredential(tenant, "mfa-registration", user, response, verified, {
    ...TEST_CONTEXT,
    actor: user.id,
  });
  return response.id;
}

async function sessionCount(tenant: Tenant): Promise<number> {
  const db = await executor();
  const [row] = await db.select({ n: count() }).from(sessions).where(eq(sessions.tenantId, tenant.id));
  return row?.n ?? 0;
}

async function passwordRow(tenant: Tenant, user: User) {
  const db = await executor();
  const [row] = await db
    .select()
    .from(passwords)
    .where(and(eq(passwords.tenantId, tenant.id), eq(passwords.userId, user.id)));
  return row;
}

async function signCountOf(tenant: Tenant, credentialId: string): Promise<number | undefined> {
  const db = await executor();
  const [row] = await db
    .select({ signCount: webauthnCredentials.signCount })
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.tenantId, tenant.id), eq(webauthnCredentials.id, credentialId)));
  return row?.signCount;
}

async function auditTypes(tenant: Tenant): Promise<string[]> {
  const { items } = await listAuditEvents(tenant.id, { limit: 200 });
  return items.map((event) => event.type);
}

/** `success` with a valid session cookie for the user; returns the payload. */
async function expectSignedIn(tenant: Tenant, done: FlowCall, user: User): Promise<SuccessPayload> {
  const payload = successOf(expectState(done, "success", []));
  expect(payload.user.user_id).toBe(user.id);
  expect(payload.claims.subject).toBe(user.id);
  expect(sessionCookieOf(done.res)).toBeDefined();
  const { session } = await validateSessionCookie(tenant, done.res);
  expect(session).toMatchObject({ is_valid: true, user_id: user.id });
  return payload;
}

/** A well-formed assertion for a challenge nobody issued. */
async function someAssertion() {
  const authenticator = new WebAuthnSoftwareAuthenticator();
  await authenticator.register(
    { challenge: "AAAA", rp: { id: "localhost" }, user: { id: "AAAA" } },
    { origin: ORIGIN },
  );
  return authenticator.login({ challenge: "AAAA", rpId: "localhost" }, { origin: ORIGIN });
}

describe("login flow: start and identifier", () => {
  it("starts in preflight and lands on login_init with the identifier, the passkey button and autofill", async () => {
    const tenant = await tenantWith();
    const start = await startFlow(tenant, "login");
    const preflight = expectState(start, "preflight", ["register_client_capabilities"]);
    expect(preflight.actions.register_client_capabilities!.href).toBe(
      `/login?action=register_client_capabilities%40${flowIdOf(preflight)}`,
    );
    const init = expectState(
      await act(tenant, preflight, "register_client_capabilities", CAPABILITIES),
      "login_init",
      [
        "continue_with_login_identifier",
        "webauthn_generate_request_options",
        "webauthn_verify_assertion_response",
      ],
    );
    expect(init.actions.continue_with_login_identifier!.inputs).toEqual({
      email: { name: "email", type: "email", required: true },
    });
    expect(init.actions.webauthn_generate_request_options!.inputs).toEqual({});
    expect(init.actions.webauthn_verify_assertion_response!.inputs.assertion_response).toMatchObject({
      type: "json",
      required: true,
    });
    // No conditional mediation reported: no autofill options, so no assertion is accepted here.
    expect(init.payload).toEqual({});
    const unasked = await act(tenant, init, "webauthn_verify_assertion_response", {
      assertion_response: await someAssertion(),
    });
    expectFlowError(unasked, "passkey_invalid", 401, "login_init");
    expect((await flowRow(tenant, flowIdOf(init))).expiresAt.getTime() - Date.now()).toBeGreaterThan(
      59 * 60_000,
    );
  });

  it("leaves the passkey actions out when the client has no WebAuthn or the tenant no passkeys", async () => {
    const noWebauthn = await tenantWith();
    expect(Object.keys((await loginInit(noWebauthn, { webauthn_available: false })).actions)).toEqual([
      "continue_with_login_identifier",
    ]);
    const noPasskeys = await tenantWith({ passkeys: { enabled: false } });
    const init = await loginInit(noPasskeys, { webauthn_conditional_mediation_available: true });
    expect(Object.keys(init.actions)).toEqual(["continue_with_login_identifier"]);
    expect(init.payload).toEqual({});
  });

  it("asks for an identifier (email or username) when the tenant has usernames", async () => {
    const tenant = await tenantWith({ username: { enabled: true } });
    const init = await loginInit(tenant);
    expect(init.actions.continue_with_login_identifier!.inputs).toEqual({
      identifier: { name: "identifier", type: "string", required: true, max_length: 254 },
    });
  });

  it("refuses unknown users on the identifier input and keeps the flow in login_init", async () => {
    const tenant = await tenantWith({ username: { enabled: true } });
    const init = await loginInit(tenant);
    const id = flowIdOf(init);
    const before = await flowRow(tenant, id);
    const email = expectFlowError(
      await identify(tenant, init, "nobody@example.com"),
      "form_data_invalid_error",
      400,
      "login_init",
    );
    expect(email.actions.continue_with_login_identifier!.inputs.identifier!.error?.code).toBe(
      "unknown_email_error",
    );
    const username = expectFlowError(
      await identify(tenant, email, "nobody"),
      "form_data_invalid_error",
      400,
      "login_init",
    );
    expect(username.actions.continue_with_login_identifier!.inputs.identifier!.error?.code).toBe(
      "unknown_username_error",
    );
    const after = await flowRow(tenant, id);
    expect({ state: after.state, stash: after.stash, history: after.history }).toEqual({
      state: before.state,
      stash: before.stash,
      history: before.history,
    });
  });

  it("checks the email input: missing, not an address, unknown", async () => {
    const tenant = await tenantWith();
    let state = await loginInit(tenant);
    for (const [value, code] of [
      [undefined, "value_missing_error"],
      ["not an address", "value_invalid_error"],
      ["nobody@example.com", "unknown_email_error"],
    ] as const) {
      const refused = await act(
        tenant,
        state,
        "continue_with_login_identifier",
        value === undefined ? {} : { email: value },
      );
      state = expectFlowError(refused, "form_data_invalid_error", 400, "login_init");
      expect(state.actions.continue_with_login_identifier!.inputs.email!.error?.code).toBe(code);
    }
  });

  it("refuses a known user without any usable method with operation_not_permitted_error", async () => {
    const tenant = await tenantWith({ passcodes: { enabled: false } });
    const mail = address();
    const user = await createUserWithEmail(tenant, mail);
    await addPasskey(tenant, user, new WebAuthnSoftwareAuthenticator());
    // The only method is a passkey, and this client cannot run WebAuthn.
    const init = await loginInit(tenant, { webauthn_available: false });
    expectFlowError(await identify(tenant, init, mail), "operation_not_permitted_error", 403, "login_init");
  });
});

describe("login flow: passkeys", () => {
  it("logs in with conditional UI straight from login_init", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(tenant, user, authenticator);

    const init = await loginInit(tenant, { webauthn_conditional_mediation_available: true });
    const publicKey = publicKeyOf(init);
    // Discoverable: no user, no allowCredentials; the tenant's RP ID and passkey policy.
    expect(publicKey.allowCredentials).toBeUndefined();
    expect(publicKey.rpId).toBe("localhost");
    expect(publicKey.userVerification).toBe("required");
    const assertion = await authenticator.login(publicKey, { origin: ORIGIN });
    const done = await act(tenant, init, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["passkey"]);
    expect(payload.last_login).toEqual({ login_method: "passkey" });
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining([
        "webauthn.login.finalize.succeeded",
        "flow.login.webauthn_verify_assertion_response.succeeded",
        "session.created",
      ]),
    );
  });

  it("hands conditional UI's challenge out again for the passkey button, and a new one once it was used", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(tenant, user, authenticator);
    const challenges = async () => {
      const db = await executor();
      return db
        .select({ challenge: webauthnChallenges.challenge, expiresAt: webauthnChallenges.expiresAt })
        .from(webauthnChallenges)
        .where(eq(webauthnChallenges.tenantId, tenant.id));
    };

    const init = await loginInit(tenant, { webauthn_conditional_mediation_available: true });
    const autofill = publicKeyOf(init);
    const [stored] = await challenges();
    const passkey = expectState(
      await act(tenant, init, "webauthn_generate_request_options"),
      "login_passkey",
    );
    // The same options, renewed for a full lifetime; no second challenge is stored.
    expect(publicKeyOf(passkey)).toEqual(autofill);
    const renewed = await challenges();
    expect(renewed.map((row) => row.challenge)).toEqual([autofill.challenge]);
    expect(renewed[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(stored!.expiresAt.getTime());
    const assertion = await authenticator.login(publicKeyOf(passkey), { origin: ORIGIN });
    const done = await act(tenant, passkey, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    await expectSignedIn(tenant, done, user);

    // Conditional UI's assertion refused at login_init uses its challenge up: the button gets a new one.
    const again = await loginInit(tenant, { webauthn_conditional_mediation_available: true });
    const tampered = await authenticator.login(publicKeyOf(again), {
      origin: ORIGIN,
      overrides: { tamperSignature: true },
    });
    const refused = await act(tenant, again, "webauthn_verify_assertion_response", {
      assertion_response: tampered,
    });
    expect(refused.body.error?.code).toBe("passkey_invalid");
    const fresh = expectState(
      await act(tenant, refused.body, "webauthn_generate_request_options"),
      "login_passkey",
    );
    expect(publicKeyOf(fresh).challenge).not.toBe(publicKeyOf(again).challenge);
    const second = await authenticator.login(publicKeyOf(fresh), { origin: ORIGIN });
    await expectSignedIn(
      tenant,
      await act(tenant, fresh, "webauthn_verify_assertion_response", { assertion_response: second }),
      user,
    );
  });

  it("logs in with the passkey button (discoverable) and goes back from login_passkey", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(tenant, user, authenticator);

    const init = await loginInit(tenant);
    const passkey = expectState(
      await act(tenant, init, "webauthn_generate_request_options"),
      "login_passkey",
      ["webauthn_verify_assertion_response", "back"],
    );
    expect(publicKeyOf(passkey).allowCredentials).toBeUndefined();
    // The SDK runs `back` when the user cancels the ceremony.
    const again = expectState(await act(tenant, passkey, "back"), "login_init");
    const retry = expectState(await act(tenant, again, "webauthn_generate_request_options"), "login_passkey");
    expect(publicKeyOf(retry).challenge).not.toBe(publicKeyOf(passkey).challenge);
    const assertion = await authenticator.login(publicKeyOf(retry), { origin: ORIGIN });
    const done = await act(tenant, retry, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    expect((await expectSignedIn(tenant, done, user)).last_login).toEqual({ login_method: "passkey" });
  });

  it("sends a user with only passkeys to login_passkey with their passkeys in allowCredentials", async () => {
    const tenant = await tenantWith({ passcodes: { enabled: false } });
    const mail = address();
    const user = await createUserWithEmail(tenant, mail);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const first = await addPasskey(tenant, user, authenticator);
    const second = await addPasskey(tenant, user, authenticator);
    await addSecurityKey(tenant, user, authenticator);

    const passkey = expectState(await identify(tenant, await loginInit(tenant), mail), "login_passkey");
    expect(
      publicKeyOf(passkey)
        .allowCredentials!.map((entry) => entry.id)
        .sort(),
    ).toEqual([first, second].sort());
    const back = expectState(await act(tenant, passkey, "back"), "login_init");
    // Back at login_init the identification is forgotten.
    expect((await flowRow(tenant, flowIdOf(back))).stash).not.toHaveProperty("user_id");
    const retry = expectState(await identify(tenant, back, mail), "login_passkey");
    const assertion = await authenticator.login(publicKeyOf(retry), { origin: ORIGIN, credentialId: second });
    const done = await act(tenant, retry, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    await expectSignedIn(tenant, done, user);
  });

  it("refuses a bad assertion with passkey_invalid 401, keeps login_passkey and consumes the challenge", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const credentialId = await addPasskey(tenant, user, authenticator);
    const passkey = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const signCount = await signCountOf(tenant, credentialId);

    const tampered = await authenticator.login(publicKeyOf(passkey), {
      origin: ORIGIN,
      overrides: { tamperSignature: true },
    });
    const refused = expectFlowError(
      await act(tenant, passkey, "webauthn_verify_assertion_response", { assertion_response: tampered }),
      "passkey_invalid",
      401,
      "login_passkey",
    );
    expect(refused.payload).toEqual(passkey.payload);
    expect(await sessionCount(tenant)).toBe(0);
    expect(await signCountOf(tenant, credentialId)).toBe(signCount);

    // A correct signature over the same challenge: the challenge was single use.
    const replay = await authenticator.login(publicKeyOf(passkey), { origin: ORIGIN });
    expectFlowError(
      await act(tenant, refused, "webauthn_verify_assertion_response", { assertion_response: replay }),
      "passkey_invalid",
      401,
      "login_passkey",
    );
    expect(await sessionCount(tenant)).toBe(0);
    expect(await auditTypes(tenant)).toContain("webauthn.login.finalize.failed");
  });

  it("refuses an assertion replayed into another flow, and a malformed one on its input", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(tenant, user, authenticator);
    const first = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const assertion = await authenticator.login(publicKeyOf(first), { origin: ORIGIN });
    await expectSignedIn(
      tenant,
      await act(tenant, first, "webauthn_verify_assertion_response", { assertion_response: assertion }),
      user,
    );

    const other = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const replayed = await act(tenant, other, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    const kept = expectFlowError(replayed, "passkey_invalid", 401, "login_passkey");
    expect(await sessionCount(tenant)).toBe(1);

    const malformed = await act(tenant, kept, "webauthn_verify_assertion_response", {
      assertion_response: { id: "x" },
    });
    const body = expectFlowError(malformed, "form_data_invalid_error", 400, "login_passkey");
    expect(body.actions.webauthn_verify_assertion_response!.inputs.assertion_response!.error?.code).toBe(
      "value_invalid_error",
    );
    const missing = await act(tenant, body, "webauthn_verify_assertion_response", {
      assertion_response: null,
    });
    expect(
      expectFlowError(missing, "form_data_invalid_error", 400, "login_passkey").actions
        .webauthn_verify_assertion_response!.inputs.assertion_response!.error?.code,
    ).toBe("value_missing_error");
  });

  it("refuses a passkey of another tenant", async () => {
    const tenant = await tenantWith();
    const other = await tenantWith();
    const stranger = await createUserWithEmail(other);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(other, stranger, authenticator);

    const passkey = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const assertion = await authenticator.login(publicKeyOf(passkey), { origin: ORIGIN });
    expectFlowError(
      await act(tenant, passkey, "webauthn_verify_assertion_response", { assertion_response: assertion }),
      "passkey_invalid",
      401,
      "login_passkey",
    );
    expect(await sessionCount(tenant)).toBe(0);
    expect(await sessionCount(other)).toBe(0);
  });

  it("refuses an MFA-only security key as a passkey with webauthn_credential_invalid_mfa_only", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const keyId = await addSecurityKey(tenant, user, authenticator);
    const passkey = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const assertion = await authenticator.login(publicKeyOf(passkey), {
      origin: ORIGIN,
      credentialId: keyId,
    });
    expectFlowError(
      await act(tenant, passkey, "webauthn_verify_assertion_response", { assertion_response: assertion }),
      "webauthn_credential_invalid_mfa_only",
      401,
      "login_passkey",
    );
    expect(await sessionCount(tenant)).toBe(0);
  });
});

describe("login flow: method chooser and password", () => {
  it("offers a chooser with every method the user has, and back to login_init", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { user, mail } = await userWithPassword(tenant);
    await addPasskey(tenant, user, new WebAuthnSoftwareAuthenticator());
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
      [
        "continue_to_password_login",
        "continue_to_passcode_confirmation",
        "webauthn_generate_request_options",
        "back",
      ],
    );
    expect(chooser.payload).toEqual({});
    expectState(await act(tenant, chooser, "back"), "login_init");

    // Without WebAuthn on the client, only password and passcode.
    const noWebauthn = await loginInit(tenant, { webauthn_available: false });
    expectState(await identify(tenant, noWebauthn, mail), "login_method_chooser", [
      "continue_to_password_login",
      "continue_to_passcode_confirmation",
      "back",
    ]);
  });

  it("logs in with the user's passkey from the chooser", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { user, mail } = await userWithPassword(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const credentialId = await addPasskey(tenant, user, authenticator);
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
    );
    const passkey = expectState(
      await act(tenant, chooser, "webauthn_generate_request_options"),
      "login_passkey",
    );
    expect(publicKeyOf(passkey).allowCredentials).toEqual([expect.objectContaining({ id: credentialId })]);
    const back = expectState(await act(tenant, passkey, "back"), "login_method_chooser");
    const retry = expectState(await act(tenant, back, "webauthn_generate_request_options"), "login_passkey");
    const assertion = await authenticator.login(publicKeyOf(retry), { origin: ORIGIN });
    const done = await act(tenant, retry, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    expect((await expectSignedIn(tenant, done, user)).claims.amr).toEqual(["passkey"]);
  });

  it("refuses a wrong password on its input, counts it, then logs in with the right one", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passcodes: { enabled: false } });
    const { user, mail } = await userWithPassword(tenant);
    const login = expectState(await identify(tenant, await loginInit(tenant), mail), "login_password", [
      "password_login",
      "back",
    ]);
    expect(login.actions.password_login!.inputs.password).toMatchObject({ type: "password", required: true });

    const wrong = await act(tenant, login, "password_login", { password: "wrong password" });
    const refused = expectFlowError(wrong, "form_data_invalid_error", 400, "login_password");
    expect(refused.actions.password_login!.inputs.password!.error?.code).toBe("value_invalid_error");
    expect(sessionCookieOf(wrong.res)).toBeUndefined();
    expect((await passwordRow(tenant, user))!.failedAttempts).toBe(1);
    const missing = await act(tenant, refused, "password_login", {});
    const stillThere = expectFlowError(missing, "form_data_invalid_error", 400, "login_password");
    expect(stillThere.actions.password_login!.inputs.password!.error?.code).toBe("value_missing_error");

    const done = await act(tenant, stillThere, "password_login", { password: PASSWORD });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["pwd"]);
    expect(payload.last_login).toEqual({ login_method: "password" });
    expect((await passwordRow(tenant, user))!.failedAttempts).toBe(0);
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining(["password.verify.failed", "password.verify.succeeded"]),
    );
  });

  it("goes back from login_password to the chooser", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { mail } = await userWithPassword(tenant);
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
      ["continue_to_password_login", "continue_to_passcode_confirmation", "back"],
    );
    const login = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password", [
      "password_login",
      "continue_to_passcode_confirmation_recovery",
      "back",
    ]);
    expectState(await act(tenant, login, "back"), "login_method_chooser");
  });

  it("honours the lockout: a locked password is refused even when right", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passcodes: { enabled: false } });
    const { user, mail } = await userWithPassword(tenant);
    const db = await executor();
    await db
      .update(passwords)
      .set({ failedAttempts: MAX_FAILED_ATTEMPTS - 1 })
      .where(eq(passwords.userId, user.id));
    const login = expectState(await identify(tenant, await loginInit(tenant), mail), "login_password");
    const wrong = expectFlowError(
      await act(tenant, login, "password_login", { password: "wrong password" }),
      "form_data_invalid_error",
      400,
      "login_password",
    );
    expect((await passwordRow(tenant, user))!.lockedAt).not.toBeNull();
    const locked = await act(tenant, wrong, "password_login", { password: PASSWORD });
    expectFlowError(locked, "operation_not_permitted_error", 403, "login_password");
    expect(sessionCookieOf(locked.res)).toBeUndefined();
    expect(await sessionCount(tenant)).toBe(0);
    expect(await auditTypes(tenant)).toContain("password.locked");
  });

  it("rate-limits password guesses with the tenant's password limit (429, Retry-After)", async () => {
    const tenant = await createPublicTenant({
      platform: {
        password: { enabled: true },
        rateLimits: {
          passcode: { points: 1000, durationSeconds: 60 },
          password: { points: 2, durationSeconds: 60 },
        },
      },
    });
    const { user, mail } = await userWithPassword(tenant);
    let state = expectState(await identify(tenant, await loginInit(tenant), mail), "login_method_chooser");
    state = expectState(await act(tenant, state, "continue_to_password_login"), "login_password");
    for (let i = 0; i < 2; i++) {
      state = expectFlowError(
        await act(tenant, state, "password_login", { password: "wrong password" }),
        "form_data_invalid_error",
        400,
        "login_password",
      );
    }
    const limited = await act(tenant, state, "password_login", { password: PASSWORD });
    expectFlowError(limited, "rate_limit_exceeded", 429, "login_password");
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Refused before the password was checked: the failure count stays at two.
    expect((await passwordRow(tenant, user))!.failedAttempts).toBe(2);
    expect(await sessionCount(tenant)).toBe(0);
  });

  it("recovers a forgotten password with a mailed code, unlocks it and continues the login", async () => {
    const tenant = await tenantWith({ password: { enabled: true, minLength: 10 } });
    const { user, mail } = await userWithPassword(tenant);
    await (
      await executor()
    )
      .update(passwords)
      .set({ failedAttempts: MAX_FAILED_ATTEMPTS, lockedAt: new Date() })
      .where(eq(passwords.userId, user.id));
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
    );
    const login = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
    const passcode = expectState(
      await act(tenant, login, "continue_to_passcode_confirmation_recovery"),
      "passcode_confirmation",
      ["verify_passcode", "resend_passcode", "back"],
    );
    // Back to the password form and forward again: a new code each time.
    const again = expectState(await act(tenant, passcode, "back"), "login_password");
    const recovery = expectState(
      await act(tenant, again, "continue_to_passcode_confirmation_recovery"),
      "passcode_confirmation",
    );
    const code = await outboxCode(tenant.id, mail);
    const form = expectState(
      await act(tenant, recovery, "verify_passcode", { code }),
      "login_password_recovery",
      ["password_recovery"],
    );
    expect(form.actions.password_recovery!.inputs.new_password).toMatchObject({
      type: "password",
      required: true,
      min_length: 10,
    });
    const short = await act(tenant, form, "password_recovery", { new_password: "short" });
    const refused = expectFlowError(short, "form_data_invalid_error", 400, "login_password_recovery");
    expect(refused.actions.password_recovery!.inputs.new_password!.error?.code).toBe("value_too_short_error");

    const done = await act(tenant, refused, "password_recovery", { new_password: "a brand new password" });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["otp"]);
    expect(payload.last_login).toEqual({ login_method: "passcode" });
    expect(await passwordRow(tenant, user)).toMatchObject({ failedAttempts: 0, lockedAt: null });

    // The new password works in the next login.
    const next = expectState(await identify(tenant, await loginInit(tenant), mail), "login_method_chooser");
    const form2 = expectState(await act(tenant, next, "continue_to_password_login"), "login_password");
    await expectSignedIn(
      tenant,
      await act(tenant, form2, "password_login", { password: "a brand new password" }),
      user,
    );
  });

  it("logs a platform user in by username (any case) with a password", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, username: { enabled: true } });
    const user = await platformUser(tenant, { username: "Alice_1" });
    await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
    // No address: no passcode; no passkey: the password form directly.
    const login = expectState(await identify(tenant, await loginInit(tenant), "alice_1"), "login_password", [
      "password_login",
      "back",
    ]);
    const done = await act(tenant, login, "password_login", { password: PASSWORD });
    expect((await expectSignedIn(tenant, done, user)).claims.username).toBe("Alice_1");
  });

  it("accepts an email in the identifier input when the tenant has usernames", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, username: { enabled: true } });
    const mail = address();
    const user = await platformUser(tenant, { username: "bob", address: mail });
    await setPasswordOfSelf(tenant, user, { password: PASSWORD }, TEST_CONTEXT);
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail.toUpperCase()),
      "login_method_chooser",
    );
    const login = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
    await expectSignedIn(tenant, await act(tenant, login, "password_login", { password: PASSWORD }), user);
  });
});

describe("login flow: passcodes", () => {
  it("mails a code to a passcode-only user, refuses an early resend and logs in with the code", async () => {
    const tenant = await tenantWith();
    const mail = address();
    const user = await createUserWithEmail(tenant, mail);
    const passcode = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "passcode_confirmation",
      ["verify_passcode", "resend_passcode", "back"],
    );
    expect(passcode.payload).toEqual({ passcode_resent: false, resend_after: 30 });
    const code = await outboxCode(tenant.id, mail);

    const early = await act(tenant, passcode, "resend_passcode");
    const kept = expectFlowError(early, "rate_limit_exceeded", 429, "passcode_confirmation");
    expect(Number(early.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await outboxCode(tenant.id, mail)).toBe(code);

    // Once `resend_after` has passed (the send time moved back), a new code goes out and replaces the old.
    const db = await executor();
    const row = await flowRow(tenant, flowIdOf(kept));
    await db
      .update(flows)
      .set({ stash: { ...row.stash, passcode_sent_at: Date.now() - 31_000 } })
      .where(eq(flows.id, row.id));
    const resent = expectState(await act(tenant, kept, "resend_passcode"), "passcode_confirmation");
    expect(resent.payload).toEqual({ passcode_resent: true, resend_after: 30 });
    const newCode = await outboxCode(tenant.id, mail);
    let current = resent;
    if (newCode !== code) {
      current = expectFlowError(
        await act(tenant, resent, "verify_passcode", { code }),
        "form_data_invalid_error",
        400,
        "passcode_confirmation",
      );
      expect(current.actions.verify_passcode!.inputs.code!.error?.code).toBe("passcode_invalid");
    }

    const done = await act(tenant, current, "verify_passcode", { code: newCode });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["otp"]);
    expect(payload.last_login).toEqual({ login_method: "passcode" });
  });

  it("counts wrong codes: passcode_invalid on the input twice, then passcode_max_attempts_reached", async () => {
    const tenant = await tenantWith();
    const mail = address();
    await createUserWithEmail(tenant, mail);
    let state = expectState(await identify(tenant, await loginInit(tenant), mail), "passcode_confirmation");
    const code = await outboxCode(tenant.id, mail);
    const wrong = code === "000000" ? "111111" : "000000";
    // Hanko's answer to a wrong code: `form_data_invalid_error`, `passcode_invalid` on the `code` input.
    for (let attempt = 0; attempt < 2; attempt++) {
      state = expectFlowError(
        await act(tenant, state, "verify_passcode", { code: wrong }),
        "form_data_invalid_error",
        400,
        "passcode_confirmation",
      );
      expect(state.actions.verify_passcode!.inputs.code!.error?.code).toBe("passcode_invalid");
    }
    state = expectFlowError(
      await act(tenant, state, "verify_passcode", { code: wrong }),
      "passcode_max_attempts_reached",
      401,
      "passcode_confirmation",
    );
    // The right code is no good any more either.
    expectFlowError(
      await act(tenant, state, "verify_passcode", { code }),
      "passcode_max_attempts_reached",
      401,
      "passcode_confirmation",
    );
    expect(await sessionCount(tenant)).toBe(0);
  });

  it("verifies an unverified address with the code, and goes back from passcode_confirmation", async () => {
    const tenant = await tenantWith();
    const mail = address();
    const user = await platformUser(tenant, { address: mail, verified: false });
    const passcode = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "passcode_confirmation",
    );
    const init = expectState(await act(tenant, passcode, "back"), "login_init");
    const again = expectState(await identify(tenant, init, mail), "passcode_confirmation");
    const done = await act(tenant, again, "verify_passcode", { code: await outboxCode(tenant.id, mail) });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.user.emails).toEqual([expect.objectContaining({ address: mail, is_verified: true })]);
    expect(await auditTypes(tenant)).toContain("email.verified");
  });

  it("does not mail a login code to an unverified address of an account with a verified one", async () => {
    const tenant = await tenantWith();
    const user = await createUserWithEmail(tenant);
    const added = address();
    await (
      await executor()
    )
      .insert(emails)
      .values({ tenantId: tenant.id, userId: user.id, address: added, verified: false, isPrimary: false });
    const init = await loginInit(tenant);
    expectFlowError(await identify(tenant, init, added), "operation_not_permitted_error", 403, "login_init");
  });

  it("offers the passcode from the chooser and leaves the address row alone when already verified", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { user, mail } = await userWithPassword(tenant);
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
    );
    const passcode = expectState(
      await act(tenant, chooser, "continue_to_passcode_confirmation"),
      "passcode_confirmation",
    );
    const back = expectState(await act(tenant, passcode, "back"), "login_method_chooser");
    const again = expectState(
      await act(tenant, back, "continue_to_passcode_confirmation"),
      "passcode_confirmation",
    );
    const done = await act(tenant, again, "verify_passcode", { code: await outboxCode(tenant.id, mail) });
    expect((await expectSignedIn(tenant, done, user)).claims.amr).toEqual(["otp"]);
    expect(await auditTypes(tenant)).not.toContain("email.verified");
  });
});

describe("login flow: second factors", () => {
  it("asks for the app's code after a password; refuses a wrong code and a reused one", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passcodes: { enabled: false } });
    const { user, mail } = await userWithPassword(tenant);
    const secret = await addTotp(tenant, user);
    const login = expectState(await identify(tenant, await loginInit(tenant), mail), "login_password");
    const otp = expectState(await act(tenant, login, "password_login", { password: PASSWORD }), "login_otp", [
      "otp_code_validate",
    ]);
    expect(otp.actions.otp_code_validate!.inputs.otp_code).toMatchObject({ type: "string", required: true });
    expect(await sessionCount(tenant)).toBe(0);

    const code = totpCode(secret);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = expectFlowError(
      await act(tenant, otp, "otp_code_validate", { otp_code: wrong }),
      "form_data_invalid_error",
      400,
      "login_otp",
    );
    expect(refused.actions.otp_code_validate!.inputs.otp_code!.error?.code).toBe("otp_code_invalid");
    const done = await act(tenant, refused, "otp_code_validate", { otp_code: code });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["pwd", "totp"]);
    expect(payload.last_login).toEqual({ login_method: "password", mfa_method: "totp" });

    // The same code in another login: accepted once only.
    const second = expectState(await identify(tenant, await loginInit(tenant), mail), "login_password");
    const otp2 = expectState(
      await act(tenant, second, "password_login", { password: PASSWORD }),
      "login_otp",
    );
    const reused = expectFlowError(
      await act(tenant, otp2, "otp_code_validate", { otp_code: code }),
      "form_data_invalid_error",
      400,
      "login_otp",
    );
    expect(reused.actions.otp_code_validate!.inputs.otp_code!.error?.code).toBe("otp_code_already_used");
    expect(await sessionCount(tenant)).toBe(1);
    expect(await auditTypes(tenant)).toContain("otp.check.failed");
  });

  it("asks for the security key first after a passcode, and lets the user switch to the app and back", async () => {
    const tenant = await tenantWith();
    const mail = address();
    const user = await createUserWithEmail(tenant, mail);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const passkeyId = await addPasskey(tenant, user, authenticator);
    const keyId = await addSecurityKey(tenant, user, authenticator);
    await addTotp(tenant, user);

    const webauthnless = await loginInit(tenant, { webauthn_available: false });
    const passcode = expectState(await identify(tenant, webauthnless, mail), "passcode_confirmation");
    // Without WebAuthn on the client the app comes first.
    expectState(
      await act(tenant, passcode, "verify_passcode", { code: await outboxCode(tenant.id, mail) }),
      "login_otp",
      ["otp_code_validate", "continue_to_login_security_key"],
    );

    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
    );
    const mailed = expectState(
      await act(tenant, chooser, "continue_to_passcode_confirmation"),
      "passcode_confirmation",
    );
    const key = expectState(
      await act(tenant, mailed, "verify_passcode", { code: await outboxCode(tenant.id, mail) }),
      "login_security_key",
      ["webauthn_generate_request_options", "continue_to_login_otp"],
    );
    const otp = expectState(await act(tenant, key, "continue_to_login_otp"), "login_otp", [
      "otp_code_validate",
      "continue_to_login_security_key",
    ]);
    const keyAgain = expectState(
      await act(tenant, otp, "continue_to_login_security_key"),
      "login_security_key",
    );
    const request = expectState(
      await act(tenant, keyAgain, "webauthn_generate_request_options"),
      "login_passkey",
      ["webauthn_verify_assertion_response", "back"],
    );
    expect(publicKeyOf(request).allowCredentials).toEqual([expect.objectContaining({ id: keyId })]);
    expect(publicKeyOf(request).userVerification).toBe("preferred");
    const backed = expectState(await act(tenant, request, "back"), "login_security_key");
    const retry = expectState(
      await act(tenant, backed, "webauthn_generate_request_options"),
      "login_passkey",
    );

    // A passkey is not a second factor here.
    const withPasskey = await authenticator.login(publicKeyOf(retry), {
      origin: ORIGIN,
      credentialId: passkeyId,
    });
    const refused = expectFlowError(
      await act(tenant, retry, "webauthn_verify_assertion_response", { assertion_response: withPasskey }),
      "passkey_invalid",
      401,
      "login_passkey",
    );
    const keyThird = expectState(await act(tenant, refused, "back"), "login_security_key");
    const fresh = expectState(
      await act(tenant, keyThird, "webauthn_generate_request_options"),
      "login_passkey",
    );
    const signCount = await signCountOf(tenant, keyId);
    const assertion = await authenticator.login(publicKeyOf(fresh), { origin: ORIGIN, credentialId: keyId });
    const done = await act(tenant, fresh, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    const payload = await expectSignedIn(tenant, done, user);
    expect(payload.claims.amr).toEqual(["otp", "security_key"]);
    expect(payload.last_login).toEqual({ login_method: "passcode", mfa_method: "security_key" });
    expect(await signCountOf(tenant, keyId)).toBeGreaterThan(signCount!);
    expect(await auditTypes(tenant)).toEqual(
      expect.arrayContaining(["webauthn.mfa_login.finalize.succeeded", "webauthn.mfa_login.finalize.failed"]),
    );
  });
});

describe("login flow: second factor rules", () => {
  it("asks for no second factor after a passkey, nor when the tenant has MFA off", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { user, mail } = await userWithPassword(tenant);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    await addPasskey(tenant, user, authenticator);
    await addTotp(tenant, user);
    const passkey = expectState(
      await act(tenant, await loginInit(tenant), "webauthn_generate_request_options"),
      "login_passkey",
    );
    const assertion = await authenticator.login(publicKeyOf(passkey), { origin: ORIGIN });
    const done = await act(tenant, passkey, "webauthn_verify_assertion_response", {
      assertion_response: assertion,
    });
    expect((await expectSignedIn(tenant, done, user)).claims.amr).toEqual(["passkey"]);

    const off = await tenantWith({ password: { enabled: true }, mfa: { enabled: false } });
    const other = await userWithPassword(off, mail);
    await addTotp(off, other.user);
    const chooser = expectState(await identify(off, await loginInit(off), mail), "login_method_chooser");
    const login = expectState(await act(off, chooser, "continue_to_password_login"), "login_password");
    const signedIn = await act(off, login, "password_login", { password: PASSWORD });
    expect((await expectSignedIn(off, signedIn, other.user)).claims.amr).toEqual(["pwd"]);
  });
});

describe("login flow: refusals and transport", () => {
  it("refuses actions the state does not offer with 403 and leaves the flow as it was", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { mail } = await userWithPassword(tenant);
    const init = await loginInit(tenant);
    const id = flowIdOf(init);
    const before = await flowRow(tenant, id);
    for (const action of [
      "password_login",
      "otp_code_validate",
      "password_recovery",
      "back",
      "verify_passcode",
    ]) {
      expectFlowError(
        await actNotOffered(tenant, init, action, { password: PASSWORD }),
        "operation_not_permitted_error",
        403,
      );
    }
    expect(await flowRow(tenant, id)).toEqual(before);

    // In the password form: no second-factor or recovery-form actions before their time.
    const chooser = expectState(await identify(tenant, init, mail), "login_method_chooser");
    const login = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
    const atPassword = await flowRow(tenant, id);
    for (const action of [
      "otp_code_validate",
      "password_recovery",
      "continue_to_login_otp",
      "webauthn_verify_assertion_response",
    ]) {
      expectFlowError(await actNotOffered(tenant, login, action), "operation_not_permitted_error", 403);
    }
    expect(await flowRow(tenant, id)).toEqual(atPassword);
  });

  it("refuses a wrong and a reused CSRF token without changing the flow", async () => {
    const tenant = await tenantWith({ password: { enabled: true } });
    const { mail } = await userWithPassword(tenant);
    const init = await loginInit(tenant);
    const id = flowIdOf(init);
    const chooser = expectState(await identify(tenant, init, mail), "login_method_chooser");
    const before = await flowRow(tenant, id);
    // `init`'s token was used by the step to the chooser.
    expectFlowError(await identify(tenant, init, mail), "operation_not_permitted_error", 403);
    const wrong = await postHref(tenant, chooser.actions.continue_to_password_login!.href, {
      input_data: {},
      csrf_token: "x".repeat(32),
    });
    expectFlowError(wrong, "operation_not_permitted_error", 403);
    const missing = await postHref(tenant, chooser.actions.continue_to_password_login!.href, {
      input_data: {},
    });
    expectFlowError(missing, "operation_not_permitted_error", 403);
    expect(await flowRow(tenant, id)).toEqual(before);
    expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
  });

  it("hands the session over in X-Auth-Token when the tenant's sessions are cross-domain", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, session: { crossDomain: true } });
    const { user, mail } = await userWithPassword(tenant);
    const chooser = expectState(
      await identify(tenant, await loginInit(tenant), mail),
      "login_method_chooser",
    );
    const login = expectState(await act(tenant, chooser, "continue_to_password_login"), "login_password");
    const done = await act(tenant, login, "password_login", { password: PASSWORD });
    expectState(done, "success");
    const token = done.res.headers.get("x-auth-token");
    expect(token).toBeTruthy();
    expect(done.res.headers.get("set-cookie")).toBeNull();
    expect(done.res.headers.get("x-session-lifetime")).toBe(String(tenant.sessionLifetimeSeconds));
    const validation = await publicCall(validateRoute.GET, tenant, "GET", "/sessions/validate", {
      token: token!,
    });
    expect(await validation.json()).toMatchObject({ is_valid: true, user_id: user.id });
  });

  it("runs through the spec's /flow/login/initialize and /finalize?action= URLs", async () => {
    const tenant = await tenantWith();
    const mail = address();
    const user = await createUserWithEmail(tenant, mail);
    const post = async (path: string, body?: unknown): Promise<FlowCall> => {
      const handler = path.startsWith("/initialize") ? initializeRoute.POST : finalizeRoute.POST;
      const res = await call(handler, `/t/${tenant.id}/flow/login${path}`, {
        method: "POST",
        body,
        headers: { origin: ORIGIN },
        params: { tenantId: tenant.id, flow: "login" },
      });
      return { res, body: (await res.json()) as FlowResponse };
    };
    /** The action's href (`/login?action=…`) as the spec's finalize URL. */
    const finalize = (state: FlowResponse, action: string, input: Record<string, unknown>) =>
      post(`/finalize${state.actions[action]!.href.slice("/login".length)}`, {
        input_data: input,
        csrf_token: state.csrf_token,
      });

    const preflight = expectState(await post("/initialize"), "preflight");
    const init = expectState(
      await finalize(preflight, "register_client_capabilities", CAPABILITIES),
      "login_init",
    );
    const passcode = expectState(
      await finalize(init, "continue_with_login_identifier", { email: mail }),
      "passcode_confirmation",
    );
    const done = await finalize(passcode, "verify_passcode", { code: await outboxCode(tenant.id, mail) });
    await expectSignedIn(tenant, done, user);
  });
});
