import { randomUUID } from "node:crypto";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as registrationFinalize from "@/app/(public-api)/t/[tenantId]/webauthn/registration/finalize/route";
import { listAuditEvents, type AuditPage } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, passwords, users, webauthnChallenges, webauthnCredentials } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { verifyPassword } from "@/lib/passwords/hashing";
import type { Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
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
  createPasscodeTenant,
  createUserWithEmail,
  publicCall,
  sessionFor,
  useDevOutbox,
  validateSessionCookie,
} from "../helpers/public-api";
import { outboxCode } from "../helpers/smtp";
import { WebAuthnSoftwareAuthenticator, fromB64url } from "../helpers/webauthn-software-authenticator";

useDevOutbox();

type Platform = NonNullable<UpdateTenantInput["platform"]>;

const newAddress = () => `${randomUUID()}@example.com`;
const uuidHandle = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex").toString("base64url");

interface CreationPayload {
  creation_options: {
    publicKey: {
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
      attestation: string;
      excludeCredentials: unknown[];
      authenticatorSelection: { residentKey: string; requireResidentKey: boolean; userVerification: string };
    };
  };
}

interface SuccessPayload {
  user: {
    user_id: string;
    emails: { address: string; is_verified: boolean; is_primary: boolean }[];
    passkeys: { id: string }[];
    username?: { username: string };
  };
  claims: { subject: string; expiration: string; amr?: string[] };
  last_login?: { login_method: string };
}

/** A tenant for the flow (passcode rate limit out of the way) with these platform settings. */
const tenantWith = (platform: Platform = {}) => createPasscodeTenant({ platform });

/** `preflight` → `register_client_capabilities` → `registration_init`. */
async function begin(tenant: Tenant, webauthn = true): Promise<FlowResponse> {
  const started = await startFlow(tenant, "registration");
  const preflight = expectState(started, "preflight", ["register_client_capabilities"]);
  const capabilities = { webauthn_available: webauthn, webauthn_platform_authenticator_available: webauthn };
  return expectState(
    await act(tenant, preflight, "register_client_capabilities", capabilities),
    "registration_init",
  );
}

/** Enters the address (and username) and lands on `state`. */
async function identify(
  tenant: Tenant,
  init: FlowResponse,
  input: Record<string, unknown>,
  state = "passcode_confirmation",
): Promise<FlowResponse> {
  return expectState(await act(tenant, init, "register_login_identifier", input), state);
}

/** The code mailed to the address, entered in `passcode_confirmation`. */
async function verifyEmail(tenant: Tenant, state: FlowResponse, address: string): Promise<FlowCall> {
  return act(tenant, state, "verify_passcode", { code: await outboxCode(tenant.id, address) });
}

/** `webauthn_generate_creation_options` → `onboarding_verify_passkey_attestation`; its options. */
async function creationOptions(tenant: Tenant, state: FlowResponse) {
  const verifying = expectState(
    await act(tenant, state, "webauthn_generate_creation_options"),
    "onboarding_verify_passkey_attestation",
    ["webauthn_verify_attestation_response", "back"],
  );
  return {
    verifying,
    publicKey: (verifying.payload as unknown as CreationPayload).creation_options.publicKey,
  };
}

/** Creates a passkey for the options and sends its attestation. */
async function attest(
  tenant: Tenant,
  state: FlowResponse,
  authenticator = new WebAuthnSoftwareAuthenticator(),
) {
  const { verifying, publicKey } = await creationOptions(tenant, state);
  const response = await authenticator.register(publicKey, { origin: ORIGIN });
  const call = await act(tenant, verifying, "webauthn_verify_attestation_response", { public_key: response });
  return { verifying, publicKey, response, call };
}

/** From the start to `onboarding_create_passkey` on the default tenant (address proved). */
async function toCreatePasskey(tenant: Tenant, address = newAddress()): Promise<FlowResponse> {
  const confirming = await identify(tenant, await begin(tenant), { email: address });
  return expectState(await verifyEmail(tenant, confirming, address), "onboarding_create_passkey");
}

/** Everything of the tenant that a sign-up writes. */
async function tenantRows(tenant: Tenant) {
  const db = await executor();
  return {
    users: await db.select().from(users).where(eq(users.tenantId, tenant.id)).orderBy(asc(users.id)),
    emails: await db.select().from(emails).where(eq(emails.tenantId, tenant.id)).orderBy(asc(emails.id)),
    credentials: await db
      .select()
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.tenantId, tenant.id))
      .orderBy(asc(webauthnCredentials.id)),
    passwords: await db.select().from(passwords).where(eq(passwords.tenantId, tenant.id)),
  };
}

/** Expects `success`: the session is valid for the new user with `amr`, and the rows exist. */
async function expectSignedUp(tenant: Tenant, call: FlowCall, amr: string[], loginMethod?: string) {
  const success = expectState(call, "success", []);
  const payload = success.payload as unknown as SuccessPayload;
  expect(Date.parse(payload.claims.expiration)).toBeGreaterThan(Date.now());
  expect(payload.claims.subject).toBe(payload.user.user_id);
  expect(payload.last_login).toEqual(loginMethod ? { login_method: loginMethod } : undefined);
  expect(sessionCookieOf(call.res)).toBeDefined();
  const { session } = await validateSessionCookie(tenant, call.res);
  expect(session).toMatchObject({ is_valid: true, user_id: payload.user.user_id, claims: { amr } });
  const rows = await tenantRows(tenant);
  const user = rows.users.find((row) => row.id === payload.user.user_id);
  expect(user).toMatchObject({ externalId: null });
  return { payload, rows, user: user! };
}

/** Every audit event type of the tenant. */
async function auditTypes(tenant: Tenant): Promise<string[]> {
  const types: string[] = [];
  let cursor: string | null = null;
  do {
    const page: AuditPage = await listAuditEvents(tenant.id, { limit: 200, ...(cursor ? { cursor } : {}) });
    types.push(...page.items.map((event) => event.type));
    cursor = page.nextCursor;
  } while (cursor);
  return types;
}

describe("registration flow: passkey sign-up (default tenant: passkeys only, address verified)", () => {
  it("proves the address, creates a passkey and only then writes the user, its address and passkey", async () => {
    const tenant = await tenantWith();
    const address = "Alice@Example.com";
    const init = await begin(tenant);
    expect(Object.keys(init.actions)).toEqual(["register_login_identifier"]);
    expect(init.actions.register_login_identifier!.inputs).toEqual({
      email: { name: "email", type: "email", required: true, max_length: 254 },
    });
    expect(init.actions.register_login_identifier!.href).toBe(
      `/registration?action=register_login_identifier%40${flowIdOf(init)}`,
    );

    const confirming = await identify(tenant, init, { email: address });
    expect(Object.keys(confirming.actions).sort()).toEqual(["back", "resend_passcode", "verify_passcode"]);
    expect(confirming.payload).toEqual({ passcode_resent: false, resend_after: 30 });
    expect(confirming.actions.verify_passcode!.inputs.code).toMatchObject({ type: "string", required: true });
    // The code went to the lower-cased address, which has no user yet.
    expect(await outboxCode(tenant.id, "alice@example.com")).toMatch(/^\d{6}$/);

    const creating = expectState(
      await verifyEmail(tenant, confirming, "alice@example.com"),
      "onboarding_create_passkey",
      ["webauthn_generate_creation_options"],
    );
    // Nothing is written before success: the passcode step left no user and no address.
    expect(await tenantRows(tenant)).toEqual({ users: [], emails: [], credentials: [], passwords: [] });

    const authenticator = new WebAuthnSoftwareAuthenticator();
    const { publicKey, response, call } = await attest(tenant, creating, authenticator);
    const userId = (await flowRow(tenant, flowIdOf(init))).stash.user_id as string;
    expect(publicKey.user).toEqual({
      id: uuidHandle(userId),
      name: address.toLowerCase(),
      displayName: address.toLowerCase(),
    });
    expect(publicKey.rp.id).toBe(tenant.rpId);
    expect(publicKey.attestation).toBe(tenant.passkeyPolicy.attestation);
    expect(publicKey.excludeCredentials).toEqual([]);
    expect(publicKey.authenticatorSelection).toMatchObject({
      residentKey: "required",
      requireResidentKey: true,
      userVerification: tenant.passkeyPolicy.userVerification,
    });

    const { payload, rows, user } = await expectSignedUp(tenant, call, ["passkey"], "passkey");
    expect(user.id).toBe(userId);
    expect(user.username).toBeNull();
    expect(payload.user.emails).toEqual([
      expect.objectContaining({ address: "alice@example.com", is_verified: true, is_primary: true }),
    ]);
    expect(payload.user.passkeys.map((passkey) => passkey.id)).toEqual([response.id]);
    expect(rows.emails).toEqual([
      expect.objectContaining({ userId, address: "alice@example.com", verified: true, isPrimary: true }),
    ]);
    expect(rows.credentials).toEqual([
      expect.objectContaining({ id: response.id, userId, isMfa: false, userVerified: true }),
    ]);
    expect(rows.passwords).toEqual([]);
    // The passkey logs in: its user handle is the new user's.
    expect(authenticator.credentials[0]!.userHandle).toEqual(fromB64url(uuidHandle(userId)));

    const types = await auditTypes(tenant);
    for (const type of [
      "flow.registration.started",
      "flow.registration.register_login_identifier.succeeded",
      "passcode.send.succeeded",
      "passcode.check.succeeded",
      "webauthn.registration.initialize.succeeded",
      "webauthn.registration.finalize.succeeded",
      "user.signup.succeeded",
      "session.created",
      "flow.registration.webauthn_verify_attestation_response.succeeded",
    ]) {
      expect(types, type).toContain(type);
    }
    const row = await flowRow(tenant, flowIdOf(init));
    expect(row.state).toBe("success");
    // Flows of this kind live an hour.
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeCloseTo(60 * 60 * 1000, -4);
  });

  it("refuses bad addresses on the input and keeps registration_init", async () => {
    const tenant = await tenantWith();
    const init = await begin(tenant);
    const id = flowIdOf(init);
    const missing = expectFlowError(
      await act(tenant, init, "register_login_identifier", {}),
      "form_data_invalid_error",
      400,
      "registration_init",
    );
    expect(missing.actions.register_login_identifier!.inputs.email!.error?.code).toBe("value_missing_error");
    const invalid = expectFlowError(
      await act(tenant, missing, "register_login_identifier", { email: "not an address" }),
      "form_data_invalid_error",
      400,
      "registration_init",
    );
    expect(invalid.actions.register_login_identifier!.inputs.email!.error?.code).toBe("value_invalid_error");
    const long = expectFlowError(
      await act(tenant, invalid, "register_login_identifier", { email: `${"a".repeat(250)}@example.com` }),
      "form_data_invalid_error",
      400,
      "registration_init",
    );
    expect(long.actions.register_login_identifier!.inputs.email!.error?.code).toBe("value_too_long_error");
    const row = await flowRow(tenant, id);
    expect(row.state).toBe("registration_init");
    expect(row.stash.email).toBeUndefined();
  });

  it("answers email_already_exists on the input for a taken address (any case), and nothing is mailed", async () => {
    const tenant = await tenantWith();
    await createUserWithEmail(tenant, "taken@example.com");
    const before = await tenantRows(tenant);
    const init = await begin(tenant);
    const refused = expectFlowError(
      await act(tenant, init, "register_login_identifier", { email: "TAKEN@example.com" }),
      "form_data_invalid_error",
      400,
      "registration_init",
    );
    expect(refused.actions.register_login_identifier!.inputs.email!.error?.code).toBe("email_already_exists");
    await expect(outboxCode(tenant.id, "taken@example.com")).rejects.toThrow(/no outbox mail/);
    expect(await tenantRows(tenant)).toEqual(before);
    expect((await flowRow(tenant, flowIdOf(init))).state).toBe("registration_init");
  });

  it("refuses a wrong passcode (passcode_invalid, state kept, nothing written) and accepts the right one", async () => {
    const tenant = await tenantWith();
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant), { email: address });
    const code = await outboxCode(tenant.id, address);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = expectFlowError(
      await act(tenant, confirming, "verify_passcode", { code: wrong }),
      "form_data_invalid_error",
      400,
      "passcode_confirmation",
    );
    expect(refused.actions.verify_passcode!.inputs.code!.error?.code).toBe("passcode_invalid");
    expect(refused.payload).toEqual(confirming.payload);
    const short = expectFlowError(
      await act(tenant, refused, "verify_passcode", { code: "123" }),
      "form_data_invalid_error",
      400,
      "passcode_confirmation",
    );
    expect(short.actions.verify_passcode!.inputs.code!.error?.code).toBe("value_too_short_error");
    expect((await tenantRows(tenant)).users).toEqual([]);
    expectState(await act(tenant, short, "verify_passcode", { code }), "onboarding_create_passkey");
  });

  it("refuses the code mailed to another flow's address", async () => {
    const tenant = await tenantWith();
    const [mine, theirs] = [newAddress(), newAddress()];
    const confirming = await identify(tenant, await begin(tenant), { email: mine });
    const other = await identify(tenant, await begin(tenant), { email: theirs });
    const refused = expectFlowError(
      await act(tenant, confirming, "verify_passcode", { code: await outboxCode(tenant.id, theirs) }),
      "form_data_invalid_error",
      400,
      "passcode_confirmation",
    );
    expect(refused.actions.verify_passcode!.inputs.code!.error?.code).toBe("passcode_invalid");
    // The other flow's code is still good there, and neither flow wrote anything.
    expect((await tenantRows(tenant)).users).toEqual([]);
    expectState(await verifyEmail(tenant, other, theirs), "onboarding_create_passkey");
  });

  it("does not resend a code before resend_after", async () => {
    const tenant = await tenantWith();
    const confirming = await identify(tenant, await begin(tenant), { email: newAddress() });
    const refused = await act(tenant, confirming, "resend_passcode");
    expectFlowError(refused, "rate_limit_exceeded", 429, "passcode_confirmation");
    expect(Number(refused.res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("goes back from passcode_confirmation to registration_init, and a new address needs its own code", async () => {
    const tenant = await tenantWith();
    const [first, second] = [newAddress(), newAddress()];
    const confirming = await identify(tenant, await begin(tenant), { email: first });
    const init = expectState(await act(tenant, confirming, "back"), "registration_init", [
      "register_login_identifier",
    ]);
    const again = await identify(tenant, init, { email: second });
    const refused = expectFlowError(
      await act(tenant, again, "verify_passcode", { code: await outboxCode(tenant.id, first) }),
      "form_data_invalid_error",
      400,
      "passcode_confirmation",
    );
    expect(refused.actions.verify_passcode!.inputs.code!.error?.code).toBe("passcode_invalid");
    const creating = expectState(await verifyEmail(tenant, refused, second), "onboarding_create_passkey");
    const { payload } = await expectSignedUp(
      tenant,
      (await attest(tenant, creating)).call,
      ["passkey"],
      "passkey",
    );
    expect(payload.user.emails.map((email) => email.address)).toEqual([second]);
  });

  it("offers no back once the code is used, and goes back from the attestation to onboarding_create_passkey", async () => {
    const tenant = await tenantWith();
    const creating = await toCreatePasskey(tenant);
    const id = flowIdOf(creating);
    expect(creating.actions.back).toBeUndefined();
    expect(creating.actions.skip).toBeUndefined();
    const before = await flowRow(tenant, id);
    expectFlowError(
      await postHref(tenant, `/registration?action=back%40${id}`, {
        input_data: {},
        csrf_token: creating.csrf_token,
      }),
      "operation_not_permitted_error",
      403,
    );
    expectFlowError(
      await postHref(tenant, `/registration?action=register_password%40${id}`, {
        input_data: { new_password: "correct horse battery" },
        csrf_token: creating.csrf_token,
      }),
      "operation_not_permitted_error",
      403,
    );
    expect(await flowRow(tenant, id)).toEqual(before);

    const { verifying } = await creationOptions(tenant, creating);
    const again = expectState(await act(tenant, verifying, "back"), "onboarding_create_passkey", [
      "webauthn_generate_creation_options",
    ]);
    await expectSignedUp(tenant, (await attest(tenant, again)).call, ["passkey"], "passkey");
  });

  it("refuses a reused and a wrong CSRF token without changing the flow", async () => {
    const tenant = await tenantWith();
    const init = await begin(tenant);
    const id = flowIdOf(init);
    const confirming = await identify(tenant, init, { email: newAddress() });
    const before = await flowRow(tenant, id);
    expectFlowError(
      await act(tenant, init, "register_login_identifier", { email: newAddress() }),
      "operation_not_permitted_error",
      403,
    );
    expectFlowError(
      await postHref(tenant, confirming.actions.verify_passcode!.href, {
        input_data: { code: "000000" },
        csrf_token: "x".repeat(32),
      }),
      "operation_not_permitted_error",
      403,
    );
    expect(await flowRow(tenant, id)).toEqual(before);
  });

  it("refuses an attestation for another flow's challenge, which stays usable there", async () => {
    const tenant = await tenantWith();
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const mine = await creationOptions(tenant, await toCreatePasskey(tenant));
    const theirs = await creationOptions(tenant, await toCreatePasskey(tenant));
    const foreign = await authenticator.register(theirs.publicKey, { origin: ORIGIN });
    const before = await tenantRows(tenant);
    const refused = expectFlowError(
      await act(tenant, mine.verifying, "webauthn_verify_attestation_response", { public_key: foreign }),
      "passkey_invalid",
      401,
      "onboarding_verify_passkey_attestation",
    );
    expect(refused.payload).toEqual(mine.verifying.payload);
    expect(await tenantRows(tenant)).toEqual(before);

    // The other flow finishes with it; this one with its own.
    const other = await act(tenant, theirs.verifying, "webauthn_verify_attestation_response", {
      public_key: foreign,
    });
    await expectSignedUp(tenant, other, ["passkey"], "passkey");
    const own = await authenticator.register(mine.publicKey, { origin: ORIGIN });
    await expectSignedUp(
      tenant,
      await act(tenant, refused, "webauthn_verify_attestation_response", { public_key: own }),
      ["passkey"],
      "passkey",
    );
    expect((await tenantRows(tenant)).users).toHaveLength(2);
  });

  it("refuses a bad attestation (passkey_invalid) and a malformed one (on the input), writing nothing", async () => {
    const tenant = await tenantWith();
    const { verifying, publicKey } = await creationOptions(tenant, await toCreatePasskey(tenant));
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const malformed = expectFlowError(
      await act(tenant, verifying, "webauthn_verify_attestation_response", { public_key: { id: "x" } }),
      "form_data_invalid_error",
      400,
      "onboarding_verify_passkey_attestation",
    );
    expect(malformed.actions.webauthn_verify_attestation_response!.inputs.public_key!.error?.code).toBe(
      "value_invalid_error",
    );
    const missing = expectFlowError(
      await act(tenant, malformed, "webauthn_verify_attestation_response", {}),
      "form_data_invalid_error",
      400,
      "onboarding_verify_passkey_attestation",
    );
    expect(missing.actions.webauthn_verify_attestation_response!.inputs.public_key!.error?.code).toBe(
      "value_missing_error",
    );
    const badOrigin = await authenticator.register(publicKey, {
      origin: ORIGIN,
      overrides: { origin: "https://evil.example" },
    });
    expectFlowError(
      await act(tenant, missing, "webauthn_verify_attestation_response", { public_key: badOrigin }),
      "passkey_invalid",
      401,
      "onboarding_verify_passkey_attestation",
    );
    expect(await tenantRows(tenant)).toEqual({ users: [], emails: [], credentials: [], passwords: [] });
    expect(await auditTypes(tenant)).toContain("webauthn.registration.finalize.failed");
  });

  it("answers webauthn_credential_already_exists for a credential id another user holds", async () => {
    const tenant = await tenantWith();
    const first = await attest(tenant, await toCreatePasskey(tenant));
    await expectSignedUp(tenant, first.call, ["passkey"], "passkey");
    const before = await tenantRows(tenant);

    const { verifying, publicKey } = await creationOptions(tenant, await toCreatePasskey(tenant));
    const duplicate = await new WebAuthnSoftwareAuthenticator().register(publicKey, {
      origin: ORIGIN,
      overrides: { credentialId: fromB64url(first.response.id) },
    });
    expectFlowError(
      await act(tenant, verifying, "webauthn_verify_attestation_response", { public_key: duplicate }),
      "webauthn_credential_already_exists",
      400,
      "onboarding_verify_passkey_attestation",
    );
    expect(await tenantRows(tenant)).toEqual(before);
    expect(await auditTypes(tenant)).toContain("user.signup.failed");
  });

  it("keeps sign-up challenges apart from the public API's: no user, kind sign-up", async () => {
    const tenant = await tenantWith();
    const { verifying, publicKey } = await creationOptions(tenant, await toCreatePasskey(tenant));
    const challengeRow = async () => {
      const db = await executor();
      const [row] = await db
        .select()
        .from(webauthnChallenges)
        .where(
          and(
            eq(webauthnChallenges.tenantId, tenant.id),
            eq(webauthnChallenges.challenge, publicKey.challenge),
          ),
        );
      return row;
    };
    expect(await challengeRow()).toMatchObject({ kind: "sign-up", userId: null, policy: "passkey" });

    // A signed-in user cannot finish the sign-up's ceremony through the public API ...
    const response = await new WebAuthnSoftwareAuthenticator().register(publicKey, { origin: ORIGIN });
    const token = await sessionFor(tenant, await createUserWithEmail(tenant), ["otp"]);
    const refused = await publicCall(
      registrationFinalize.POST,
      tenant,
      "POST",
      "/webauthn/registration/finalize",
      { token, body: response },
    );
    expect(refused.status).toBe(400);
    expect(await challengeRow()).toBeDefined();
    // ... and the flow still can.
    await expectSignedUp(
      tenant,
      await act(tenant, verifying, "webauthn_verify_attestation_response", { public_key: response }),
      ["passkey"],
      "passkey",
    );
    expect(await challengeRow()).toBeUndefined();
  });
});

describe("registration flow: the same address or username twice", () => {
  it("answers email_already_exists to a second sign-up once the first is done", async () => {
    const tenant = await tenantWith();
    const address = newAddress();
    const first = await attest(tenant, await toCreatePasskey(tenant, address));
    await expectSignedUp(tenant, first.call, ["passkey"], "passkey");
    const refused = expectFlowError(
      await act(tenant, await begin(tenant), "register_login_identifier", { email: address }),
      "form_data_invalid_error",
      400,
      "registration_init",
    );
    expect(refused.actions.register_login_identifier!.inputs.email!.error?.code).toBe("email_already_exists");
  });

  it("lets one of two flows that both proved the address finish; the other gets email_already_exists", async () => {
    const tenant = await tenantWith();
    const address = newAddress();
    // Each flow proves the address with its own code (a new code replaces the previous one).
    const first = await toCreatePasskey(tenant, address);
    const second = await toCreatePasskey(tenant, address);
    const [a, b] = await Promise.all([creationOptions(tenant, first), creationOptions(tenant, second)]);
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const [attestA, attestB] = [
      await authenticator.register(a.publicKey, { origin: ORIGIN }),
      await authenticator.register(b.publicKey, { origin: ORIGIN }),
    ];
    const calls = await Promise.all([
      act(tenant, a.verifying, "webauthn_verify_attestation_response", { public_key: attestA }),
      act(tenant, b.verifying, "webauthn_verify_attestation_response", { public_key: attestB }),
    ]);
    const won = calls.filter((call) => call.body.name === "success");
    const lost = calls.filter((call) => call.body.name !== "success");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expectFlowError(lost[0]!, "email_already_exists", 400, "onboarding_verify_passkey_attestation");
    expect(sessionCookieOf(lost[0]!.res)).toBeUndefined();

    const { payload, rows } = await expectSignedUp(tenant, won[0]!, ["passkey"], "passkey");
    const winner = payload.user.passkeys[0]!.id;
    // The loser's user, address and passkey do not exist.
    expect(rows.users.map((user) => user.id)).toEqual([payload.user.user_id]);
    expect(rows.emails).toEqual([expect.objectContaining({ address, userId: payload.user.user_id })]);
    expect(rows.credentials.map((credential) => credential.id)).toEqual([winner]);
    const loserFlow = won[0] === calls[0] ? second : first;
    const loserUser = (await flowRow(tenant, flowIdOf(loserFlow))).stash.user_id;
    expect(rows.users.some((user) => user.id === loserUser)).toBe(false);
  });

  it("lets one of two flows with the same username finish; the other gets username_already_exists", async () => {
    const tenant = await tenantWith({ username: { enabled: true, required: true } });
    const flows = [];
    for (const address of [newAddress(), newAddress()]) {
      const confirming = await identify(tenant, await begin(tenant), {
        email: address,
        username: "Shared.Name",
      });
      const creating = expectState(
        await verifyEmail(tenant, confirming, address),
        "onboarding_create_passkey",
      );
      flows.push(await creationOptions(tenant, creating));
    }
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const responses: RegistrationResponseJSON[] = [];
    for (const flow of flows)
      responses.push(await authenticator.register(flow.publicKey, { origin: ORIGIN }));
    const calls = await Promise.all(
      flows.map((flow, i) =>
        act(tenant, flow.verifying, "webauthn_verify_attestation_response", { public_key: responses[i] }),
      ),
    );
    const lost = calls.filter((call) => call.body.name !== "success");
    expect(lost).toHaveLength(1);
    expectFlowError(lost[0]!, "username_already_exists", 400, "onboarding_verify_passkey_attestation");
    const rows = await tenantRows(tenant);
    expect(rows.users.map((user) => user.username)).toEqual(["shared.name"]);
    expect(rows.emails).toHaveLength(1);
    expect(rows.credentials).toHaveLength(1);
  });

  it("takes over another user's unverified claim on the address once the flow proved it", async () => {
    const tenant = await tenantWith();
    const owner = await createUserWithEmail(tenant);
    const address = newAddress();
    const db = await executor();
    await db
      .insert(emails)
      .values({ tenantId: tenant.id, userId: owner.id, address, verified: false, isPrimary: false });
    const { payload, rows } = await expectSignedUp(
      tenant,
      (await attest(tenant, await toCreatePasskey(tenant, address))).call,
      ["passkey"],
      "passkey",
    );
    expect(rows.emails.filter((row) => row.address === address)).toEqual([
      expect.objectContaining({ userId: payload.user.user_id, verified: true, isPrimary: true }),
    ]);
    expect(await auditTypes(tenant)).toContain("email.claim_released");
  });
});

describe("registration flow: usernames", () => {
  it("asks for a required username with the tenant's bounds and checks it", async () => {
    const tenant = await tenantWith({
      username: { enabled: true, required: true, minLength: 4, maxLength: 12 },
    });
    const taken = await createUserWithEmail(tenant);
    await (
      await executor()
    )
      .update(users)
      .set({ username: "Taken", externalId: null })
      .where(eq(users.id, taken.id));
    let state = await begin(tenant);
    expect(state.actions.register_login_identifier!.inputs).toEqual({
      email: { name: "email", type: "email", required: true, max_length: 254 },
      username: { name: "username", type: "string", required: true, min_length: 4, max_length: 12 },
    });
    const email = newAddress();
    for (const [username, code] of [
      [undefined, "value_missing_error"],
      ["abc", "value_too_short_error"],
      ["abcdefghijklm", "value_too_long_error"],
      ["-dash", "invalid_username_error"],
      ["with space", "invalid_username_error"],
      ["tAKEN", "username_already_exists"],
    ] as const) {
      const refused = expectFlowError(
        await act(tenant, state, "register_login_identifier", { email, ...(username ? { username } : {}) }),
        "form_data_invalid_error",
        400,
        "registration_init",
      );
      expect(refused.actions.register_login_identifier!.inputs.username!.error?.code, username).toBe(code);
      state = refused;
    }
    expect((await tenantRows(tenant)).users).toHaveLength(1);
    const confirming = await identify(tenant, state, { email, username: "Ünï_côde.9" });
    const creating = expectState(await verifyEmail(tenant, confirming, email), "onboarding_create_passkey");
    const { publicKey, call } = await attest(tenant, creating);
    // Kept lower-cased, as Hanko keeps usernames.
    expect(publicKey.user).toMatchObject({ name: email, displayName: "ünï_côde.9" });
    const { payload, user } = await expectSignedUp(tenant, call, ["passkey"], "passkey");
    expect(user.username).toBe("ünï_côde.9");
    expect(payload.user.username?.username).toBe("ünï_côde.9");
  });

  it("takes an optional username or none", async () => {
    const tenant = await tenantWith({ username: { enabled: true, required: false } });
    const init = await begin(tenant);
    expect(init.actions.register_login_identifier!.inputs.username).toEqual({
      name: "username",
      type: "string",
      min_length: 3,
      max_length: 32,
    });
    const address = newAddress();
    const confirming = await identify(tenant, init, { email: address, username: "" });
    const creating = expectState(await verifyEmail(tenant, confirming, address), "onboarding_create_passkey");
    const { user } = await expectSignedUp(
      tenant,
      (await attest(tenant, creating)).call,
      ["passkey"],
      "passkey",
    );
    expect(user.username).toBeNull();

    const other = newAddress();
    const named = await identify(tenant, await begin(tenant), { email: other, username: "Optional" });
    const next = expectState(await verifyEmail(tenant, named, other), "onboarding_create_passkey");
    const signedUp = await expectSignedUp(tenant, (await attest(tenant, next)).call, ["passkey"], "passkey");
    expect(signedUp.user.username).toBe("optional");
  });
});

describe("registration flow: tenant settings", () => {
  it("offers no register_login_identifier when sign-up is disabled and refuses it when posted", async () => {
    const tenant = await tenantWith({ account: { allowSignup: false } });
    const preflight = expectState(await startFlow(tenant, "registration"), "preflight");
    const id = flowIdOf(preflight);
    const init = expectState(
      await act(tenant, preflight, "register_client_capabilities", { webauthn_available: true }),
      "registration_init",
      [],
    );
    const before = await flowRow(tenant, id);
    expectFlowError(
      await postHref(tenant, `/registration?action=register_login_identifier%40${id}`, {
        input_data: { email: newAddress() },
        csrf_token: init.csrf_token,
      }),
      "operation_not_permitted_error",
      403,
    );
    expect(await flowRow(tenant, id)).toEqual(before);
    expect(await tenantRows(tenant)).toEqual({ users: [], emails: [], credentials: [], passwords: [] });
  });

  it("skips the passcode without verification: the address is kept unverified, back leads to registration_init", async () => {
    const tenant = await tenantWith({ emails: { requireVerification: false } });
    const address = newAddress();
    const init = await begin(tenant);
    const creating = await identify(tenant, init, { email: address }, "onboarding_create_passkey");
    expect(Object.keys(creating.actions).sort()).toEqual(["back", "webauthn_generate_creation_options"]);
    await expect(outboxCode(tenant.id, address)).rejects.toThrow(/no outbox mail/);
    const back = expectState(await act(tenant, creating, "back"), "registration_init");
    const again = await identify(tenant, back, { email: address }, "onboarding_create_passkey");
    const { rows, user } = await expectSignedUp(
      tenant,
      (await attest(tenant, again)).call,
      ["passkey"],
      "passkey",
    );
    expect(rows.emails).toEqual([
      expect.objectContaining({ userId: user.id, address, verified: false, isPrimary: true }),
    ]);
  });

  it("refuses a sign-up that would have no way to log in (no verification, no usable credential)", async () => {
    const tenant = await tenantWith({ emails: { requireVerification: false } });
    const init = await begin(tenant, false);
    const refused = expectFlowError(
      await act(tenant, init, "register_login_identifier", { email: newAddress() }),
      "operation_not_permitted_error",
      403,
      "registration_init",
    );
    expect(refused.actions.register_login_identifier).toBeDefined();
    expect((await flowRow(tenant, flowIdOf(init))).state).toBe("registration_init");
    expect((await tenantRows(tenant)).users).toEqual([]);
  });

  it("lets passkeys be skipped when optional: the account logs in with passcodes (amr otp)", async () => {
    const tenant = await tenantWith({ passkeys: { optional: true } });
    const creating = await toCreatePasskey(tenant);
    expect(Object.keys(creating.actions).sort()).toEqual(["skip", "webauthn_generate_creation_options"]);
    const { rows, user } = await expectSignedUp(
      tenant,
      await act(tenant, creating, "skip"),
      ["otp"],
      "passcode",
    );
    expect(rows.emails).toEqual([
      expect.objectContaining({ userId: user.id, verified: true, isPrimary: true }),
    ]);
    expect(rows.credentials).toEqual([]);
    expect(rows.passwords).toEqual([]);
  });

  it("does not offer skip for optional passkeys when passcodes cannot log in", async () => {
    const tenant = await tenantWith({ passkeys: { optional: true }, passcodes: { enabled: false } });
    const creating = await toCreatePasskey(tenant);
    expect(creating.actions.skip).toBeUndefined();
    const before = await flowRow(tenant, flowIdOf(creating));
    expectFlowError(
      await postHref(tenant, `/registration?action=skip%40${flowIdOf(creating)}`, {
        input_data: {},
        csrf_token: creating.csrf_token,
      }),
      "operation_not_permitted_error",
      403,
    );
    expect(await flowRow(tenant, flowIdOf(creating))).toEqual(before);
  });

  it("creates the account with the proved address alone when no credential can be made", async () => {
    const tenant = await tenantWith({ passkeys: { enabled: false } });
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant), { email: address });
    const { rows } = await expectSignedUp(
      tenant,
      await verifyEmail(tenant, confirming, address),
      ["otp"],
      "passcode",
    );
    expect(rows.emails).toEqual([expect.objectContaining({ address, verified: true, isPrimary: true })]);
    expect(rows.credentials).toEqual([]);
  });

  it("treats a client without WebAuthn like a tenant without passkeys", async () => {
    const tenant = await tenantWith();
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant, false), { email: address });
    await expectSignedUp(tenant, await verifyEmail(tenant, confirming, address), ["otp"], "passcode");
  });

  it("refuses the address-only account when passcodes are disabled too", async () => {
    const tenant = await tenantWith({ passkeys: { enabled: false }, passcodes: { enabled: false } });
    expectFlowError(
      await act(tenant, await begin(tenant), "register_login_identifier", { email: newAddress() }),
      "operation_not_permitted_error",
      403,
      "registration_init",
    );
  });
});

describe("registration flow: passwords", () => {
  it("lets the user choose between passkey and password, with back from each choice", async () => {
    const tenant = await tenantWith({ password: { enabled: true, minLength: 10 } });
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant), { email: address });
    const chooser = expectState(
      await verifyEmail(tenant, confirming, address),
      "credential_onboarding_chooser",
      ["continue_to_passkey_registration", "continue_to_password_registration"],
    );
    const passkey = expectState(
      await act(tenant, chooser, "continue_to_passkey_registration"),
      "onboarding_create_passkey",
      ["webauthn_generate_creation_options", "back"],
    );
    const chooserAgain = expectState(await act(tenant, passkey, "back"), "credential_onboarding_chooser");
    const creating = expectState(
      await act(tenant, chooserAgain, "continue_to_password_registration"),
      "password_creation",
      ["register_password", "back"],
    );
    expect(creating.actions.register_password!.inputs).toEqual({
      new_password: {
        name: "new_password",
        type: "password",
        required: true,
        min_length: 10,
        max_length: 128,
      },
    });
    const backAgain = expectState(await act(tenant, creating, "back"), "credential_onboarding_chooser");
    const password = expectState(
      await act(tenant, backAgain, "continue_to_password_registration"),
      "password_creation",
    );

    const short = expectFlowError(
      await act(tenant, password, "register_password", { new_password: "123456789" }),
      "form_data_invalid_error",
      400,
      "password_creation",
    );
    expect(short.actions.register_password!.inputs.new_password!.error?.code).toBe("value_too_short_error");
    expect((await tenantRows(tenant)).users).toEqual([]);

    const done = await act(tenant, short, "register_password", { new_password: "correct horse battery" });
    const { rows, user } = await expectSignedUp(tenant, done, ["pwd"], "password");
    expect(rows.passwords).toEqual([expect.objectContaining({ userId: user.id, failedAttempts: 0 })]);
    expect(await verifyPassword(rows.passwords[0]!.hash, "correct horse battery")).toBe(true);
    expect(rows.credentials).toEqual([]);
    expect(rows.emails).toEqual([
      expect.objectContaining({ userId: user.id, verified: true, isPrimary: true }),
    ]);
    expect(await auditTypes(tenant)).toContain("password.set.succeeded");
  });

  it("offers skip in the chooser only when passkeys are optional, and creates a passkey from it", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passkeys: { optional: true } });
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant), { email: address });
    const chooser = expectState(
      await verifyEmail(tenant, confirming, address),
      "credential_onboarding_chooser",
      ["continue_to_passkey_registration", "continue_to_password_registration", "skip"],
    );
    const creating = expectState(
      await act(tenant, chooser, "continue_to_passkey_registration"),
      "onboarding_create_passkey",
      ["webauthn_generate_creation_options", "back"],
    );
    const { rows } = await expectSignedUp(
      tenant,
      (await attest(tenant, creating)).call,
      ["passkey"],
      "passkey",
    );
    expect(rows.credentials).toHaveLength(1);
    expect(rows.passwords).toEqual([]);

    const other = newAddress();
    const next = await identify(tenant, await begin(tenant), { email: other });
    const choosing = expectState(await verifyEmail(tenant, next, other), "credential_onboarding_chooser");
    await expectSignedUp(tenant, await act(tenant, choosing, "skip"), ["otp"], "passcode");
  });

  it("goes straight to password_creation without passkeys, where skip needs passcode login", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, passkeys: { enabled: false } });
    const address = newAddress();
    const confirming = await identify(tenant, await begin(tenant), { email: address });
    const creating = expectState(await verifyEmail(tenant, confirming, address), "password_creation", [
      "register_password",
      "skip",
    ]);
    const { rows } = await expectSignedUp(tenant, await act(tenant, creating, "skip"), ["otp"], "passcode");
    expect(rows.passwords).toEqual([]);

    const strict = await tenantWith({
      password: { enabled: true },
      passkeys: { enabled: false },
      passcodes: { enabled: false },
    });
    const strictAddress = newAddress();
    const strictConfirming = await identify(strict, await begin(strict), { email: strictAddress });
    expectState(await verifyEmail(strict, strictConfirming, strictAddress), "password_creation", [
      "register_password",
    ]);
  });

  it("goes to password_creation when the client cannot create passkeys, and back to registration_init without verification", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, emails: { requireVerification: false } });
    const init = await begin(tenant, false);
    const creating = await identify(tenant, init, { email: newAddress() }, "password_creation");
    expect(Object.keys(creating.actions).sort()).toEqual(["back", "register_password", "skip"]);
    const back = expectState(await act(tenant, creating, "back"), "registration_init");
    const address = newAddress();
    const again = await identify(tenant, back, { email: address }, "password_creation");
    const { rows } = await expectSignedUp(
      tenant,
      await act(tenant, again, "register_password", { new_password: "a long enough password" }),
      ["pwd"],
      "password",
    );
    expect(rows.emails).toEqual([expect.objectContaining({ address, verified: false, isPrimary: true })]);
  });

  it("goes back from the chooser to registration_init without verification", async () => {
    const tenant = await tenantWith({ password: { enabled: true }, emails: { requireVerification: false } });
    const chooser = await identify(
      tenant,
      await begin(tenant),
      { email: newAddress() },
      "credential_onboarding_chooser",
    );
    expect(Object.keys(chooser.actions).sort()).toEqual([
      "back",
      "continue_to_passkey_registration",
      "continue_to_password_registration",
    ]);
    expectState(await act(tenant, chooser, "back"), "registration_init", ["register_login_identifier"]);
  });
});
