import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as userRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/route";
import * as tokenRoute from "@/app/(public-api)/t/[tenantId]/token/route";
import { executor } from "@/lib/db";
import { emails, identities, sessions, thirdPartyStates } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import type { Tenant } from "@/lib/tenants";
import { addUser, type User } from "@/lib/users";
import { configureWebhooks } from "@/lib/webhooks";
import { adminCall } from "../helpers/admin-api";
import {
  act,
  expectFlowError,
  expectState,
  flowIdOf,
  flowRow,
  sessionCookieOf,
  startFlow,
} from "../helpers/flows";
import { CAPABILITIES, actNotOffered, loginInit } from "../helpers/login";
import { followPeer, startOidcPeer, type OidcPeer } from "../helpers/oidc-peer";
import { createPublicTenant, publicCall, sessionFor, validateSessionCookie } from "../helpers/public-api";
import { REDIRECT_TO, addOidcPeerProvider, browserCookie, callBack } from "../helpers/thirdparty";
import { bindingCookie, bindingOf } from "../helpers/token-binding";
import { createTestTenant } from "../helpers/tenants";

let peer: OidcPeer;

beforeAll(async () => {
  // The peer is on loopback: allowed as webhooks allow it (SESAME_WEBHOOKS_ALLOW_PRIVATE=true).
  configureWebhooks({ allowPrivate: true });
  peer = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});

/** `POST /token` (deprecated) from a browser without the sign-in's binding cookie (no code_verifier either). */
const exchangeByApi = (tenant: Tenant, value: string) =>
  publicCall(tokenRoute.POST, tenant, "POST", "/token", { body: { value } });

/** The tenant's custom OIDC provider `acme` on the peer. */
async function addPeerProvider(tenant: Tenant, settings: { allowLinking?: boolean } = {}) {
  await addOidcPeerProvider(tenant, peer, settings);
}

async function tenantWithPeer(settings: { allowLinking?: boolean } = {}) {
  const tenant = await createPublicTenant();
  await addPeerProvider(tenant, settings);
  return tenant;
}

async function registrationInit(tenant: Tenant): Promise<FlowResponse> {
  const preflight = expectState(await startFlow(tenant, "registration"), "preflight");
  return expectState(
    await act(tenant, preflight, "register_client_capabilities", CAPABILITIES),
    "registration_init",
  );
}

async function stateRows(tenant: Tenant) {
  const db = await executor();
  return db.select().from(thirdPartyStates).where(eq(thirdPartyStates.tenantId, tenant.id));
}

async function identityRows(tenant: Tenant, userId?: string) {
  const db = await executor();
  return db
    .select()
    .from(identities)
    .where(
      userId
        ? and(eq(identities.tenantId, tenant.id), eq(identities.userId, userId))
        : eq(identities.tenantId, tenant.id),
    );
}

/**
 * Runs `action` (thirdparty_oauth or connect_thirdparty_oauth_provider) for `acme`, signs in at the peer
 * and calls Sesame's callback with the cookie the flow answer set: the `thirdparty` state and the callback's
 * Location.
 */
async function throughPeer(
  tenant: Tenant,
  state: FlowResponse,
  action: string,
  options: { token?: string; codeVerifier?: string } = {},
) {
  const { codeVerifier, ...actOptions } = options;
  const inputs = {
    provider: "acme",
    redirect_to: REDIRECT_TO,
    ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
  };
  const started = await act(tenant, state, action, inputs, actOptions);
  const thirdparty = expectState(started, "thirdparty", ["exchange_token", "back"]);
  const redirectUrl = (thirdparty.payload as { redirect_url: string }).redirect_url;
  expect(redirectUrl.startsWith(`${peer.issuer}/`), redirectUrl).toBe(true);
  const cookie = browserCookie(started.res);
  expect(cookie).toBeDefined();
  expect(started.res.headers.getSetCookie().find((line) => line.includes(cookie!))).toMatch(
    /HttpOnly; SameSite=Lax/,
  );
  const res = await callBack(tenant, await followPeer(redirectUrl), cookie);
  expect(res.status, await res.clone().text()).toBe(302);
  // The browser's binding cookie, for the exchange that follows.
  return { thirdparty, location: new URL(res.headers.get("location")!), binding: bindingCookie(cookie) };
}

describe("thirdparty_oauth in the login and registration flows", () => {
  it("is not offered, and refused when posted anyway, when the tenant has no enabled provider", async () => {
    const tenant = await createPublicTenant();
    const init = await loginInit(tenant);
    expect(init.actions.thirdparty_oauth).toBeUndefined();
    expect((await registrationInit(tenant)).actions.thirdparty_oauth).toBeUndefined();
    const before = await flowRow(tenant, flowIdOf(init));
    const posted = await actNotOffered(tenant, init, "thirdparty_oauth", {
      provider: "acme",
      redirect_to: REDIRECT_TO,
    });
    expectFlowError(posted, "operation_not_permitted_error", 403);
    expect(posted.res.headers.getSetCookie()).toEqual([]);
    expect(await flowRow(tenant, flowIdOf(init))).toEqual(before);
    expect(await stateRows(tenant)).toEqual([]);
  });

  it("refuses a redirect_to longer than 2048 characters and a provider that is not a string", async () => {
    const tenant = await tenantWithPeer();
    const init = await loginInit(tenant);
    const long = await act(tenant, init, "thirdparty_oauth", {
      provider: "acme",
      redirect_to: `${REDIRECT_TO}?${"a".repeat(2048)}`,
    });
    let body = expectFlowError(long, "form_data_invalid_error", 400, "login_init");
    expect(body.actions.thirdparty_oauth!.inputs.redirect_to!.error?.code).toBe("value_too_long_error");
    const typed = await act(tenant, body, "thirdparty_oauth", { provider: 7, redirect_to: REDIRECT_TO });
    body = expectFlowError(typed, "form_data_invalid_error", 400, "login_init");
    expect(body.actions.thirdparty_oauth!.inputs.provider!.error?.code).toBe("value_invalid_error");
    expect(await stateRows(tenant)).toEqual([]);
  });

  it("offers the providers, goes to thirdparty and comes back with a token for a session (login)", async () => {
    const tenant = await tenantWithPeer();
    const init = await loginInit(tenant);
    expect(init.actions.thirdparty_oauth!.inputs).toEqual({
      redirect_to: { name: "redirect_to", type: "string", required: true, hidden: true, max_length: 2048 },
      provider: {
        name: "provider",
        type: "string",
        required: true,
        hidden: true,
        allowed_values: [{ value: "acme", name: "Acme" }],
      },
      code_verifier: { name: "code_verifier", type: "string", hidden: true, max_length: 128 },
    });

    peer.account = { sub: `sub-${randomUUID()}`, email: `${randomUUID()}@example.com`, email_verified: true };
    const { thirdparty, location, binding } = await throughPeer(tenant, init, "thirdparty_oauth");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_TO);
    const token = location.searchParams.get("hanko_token")!;
    expect(token).toBeTruthy();

    // The elements kept the `thirdparty` state and run its exchange_token with ?hanko_token=; started
    // without a verifier, the browser's binding cookie proves it started the sign-in.
    const done = await act(
      tenant,
      thirdparty,
      "exchange_token",
      { token, code_verifier: "x".repeat(64) },
      { binding },
    );
    const success = expectState(done, "success", []);
    const payload = success.payload as {
      user: { user_id: string; identities?: unknown[] };
      last_login?: unknown;
    };
    expect(payload.last_login).toEqual({ login_method: "third_party" });
    const [row] = await identityRows(tenant, payload.user.user_id);
    expect(payload.user.identities).toEqual([
      { id: peer.account.sub, provider: "Acme", identity_id: row!.id },
    ]);
    const { session } = await validateSessionCookie(tenant, done.res);
    expect(session).toMatchObject({
      is_valid: true,
      user_id: payload.user.user_id,
      claims: { amr: ["ext:acme"] },
    });
  });

  it("binds the token to the elements' code_verifier: another one, or none, is refused and burns nothing", async () => {
    const tenant = await tenantWithPeer();
    const verifier = "v".repeat(64);
    peer.account = { sub: `sub-${randomUUID()}`, email: `${randomUUID()}@example.com`, email_verified: true };
    const { thirdparty, location } = await throughPeer(tenant, await loginInit(tenant), "thirdparty_oauth", {
      codeVerifier: verifier,
    });
    const token = location.searchParams.get("hanko_token")!;
    // Login CSRF: the token of this sign-in, injected into another browser's page (its own verifier, or
    // none), is refused there.
    const victim = expectState(
      await act(tenant, await loginInit(tenant), "thirdparty_oauth", {
        provider: "acme",
        redirect_to: REDIRECT_TO,
        code_verifier: "w".repeat(64),
      }),
      "thirdparty",
    );
    let current = victim;
    for (const inputs of [{ token, code_verifier: "w".repeat(64) }, { token }]) {
      const refused = await act(tenant, current, "exchange_token", inputs);
      const body = expectFlowError(refused, "form_data_invalid_error", 400, "thirdparty");
      current = body;
      expect(body.actions.exchange_token!.inputs.token!.error?.code).toBe("value_invalid_error");
      expect(sessionCookieOf(refused.res)).toBeUndefined();
    }
    const refusedByApi = await exchangeByApi(tenant, token);
    expect(refusedByApi.status).toBe(404);
    // The browser that started it still can.
    const done = await act(tenant, thirdparty, "exchange_token", { token, code_verifier: verifier });
    expectState(done, "success");
    expect(sessionCookieOf(done.res)).toBeDefined();
  });

  it("signs up through the registration flow", async () => {
    const tenant = await tenantWithPeer();
    const init = await registrationInit(tenant);
    expect(init.actions.thirdparty_oauth!.inputs.provider!.allowed_values).toEqual([
      { value: "acme", name: "Acme" },
    ]);
    peer.account = { sub: `sub-${randomUUID()}`, email: `${randomUUID()}@example.com`, email_verified: true };
    const { thirdparty, location, binding } = await throughPeer(tenant, init, "thirdparty_oauth");
    const done = await act(
      tenant,
      thirdparty,
      "exchange_token",
      { token: location.searchParams.get("hanko_token") },
      { binding },
    );
    expectState(done, "success");
    expect(sessionCookieOf(done.res)).toBeDefined();
    expect(await identityRows(tenant)).toHaveLength(1);
  });

  it("refuses an unknown provider, a missing one and a redirect_to outside the tenant, changing nothing", async () => {
    const tenant = await tenantWithPeer();
    const init = await loginInit(tenant);
    const id = flowIdOf(init);
    const before = await flowRow(tenant, id);

    const unknown = await act(tenant, init, "thirdparty_oauth", {
      provider: "nope",
      redirect_to: REDIRECT_TO,
    });
    let body = expectFlowError(unknown, "form_data_invalid_error", 400, "login_init");
    expect(body.actions.thirdparty_oauth!.inputs.provider!.error?.code).toBe("value_invalid_error");
    expect(unknown.res.headers.getSetCookie()).toEqual([]);

    const missing = await act(tenant, body, "thirdparty_oauth", { redirect_to: REDIRECT_TO });
    body = expectFlowError(missing, "form_data_invalid_error", 400, "login_init");
    expect(body.actions.thirdparty_oauth!.inputs.provider!.error?.code).toBe("value_missing_error");

    for (const redirectTo of ["https://evil.example/steal", "javascript:alert(1)", "/relative"]) {
      const open = await act(tenant, body, "thirdparty_oauth", { provider: "acme", redirect_to: redirectTo });
      body = expectFlowError(open, "form_data_invalid_error", 400, "login_init");
      expect(body.actions.thirdparty_oauth!.inputs.redirect_to!.error?.code, redirectTo).toBe(
        "value_invalid_error",
      );
      expect(open.res.headers.getSetCookie()).toEqual([]);
    }
    expect(await stateRows(tenant)).toEqual([]);
    const after = await flowRow(tenant, id);
    expect([after.state, after.stash, after.payload, after.history]).toEqual([
      before.state,
      before.stash,
      before.payload,
      before.history,
    ]);
  });

  it("goes back to login_init from thirdparty (the user cancelled or an error came back)", async () => {
    const tenant = await tenantWithPeer();
    const init = await loginInit(tenant);
    const started = await act(tenant, init, "thirdparty_oauth", {
      provider: "acme",
      redirect_to: REDIRECT_TO,
    });
    const thirdparty = expectState(started, "thirdparty", ["exchange_token", "back"]);
    const back = expectState(await act(tenant, thirdparty, "back"), "login_init");
    expect(back.actions.thirdparty_oauth).toBeDefined();
  });

  it("refuses a wrong token on the token input and keeps the thirdparty state", async () => {
    const tenant = await tenantWithPeer();
    const init = await loginInit(tenant);
    const started = await act(tenant, init, "thirdparty_oauth", {
      provider: "acme",
      redirect_to: REDIRECT_TO,
    });
    const thirdparty = expectState(started, "thirdparty");
    const wrong = await act(tenant, thirdparty, "exchange_token", { token: "not-a-token" });
    const body = expectFlowError(wrong, "form_data_invalid_error", 400, "thirdparty");
    expect(body.actions.exchange_token!.inputs.token!.error?.code).toBe("value_invalid_error");
    expect(body.payload).toEqual(thirdparty.payload);
    expect(sessionCookieOf(wrong.res)).toBeUndefined();
  });
});

/** A platform user with a verified address, signed in. */
async function platformUser(tenant: Tenant): Promise<{ user: User; token: string }> {
  const user = await addUser(tenant.id);
  const db = await executor();
  await db.insert(emails).values({
    tenantId: tenant.id,
    userId: user.id,
    address: `${randomUUID()}@example.com`,
    verified: true,
    isPrimary: true,
  });
  return { user, token: await sessionFor(tenant, user) };
}

async function openProfile(tenant: Tenant, token: string): Promise<FlowResponse> {
  const start = expectState(await startFlow(tenant, "profile", { token }), "preflight");
  return expectState(
    await act(tenant, start, "register_client_capabilities", { webauthn_available: true }, { token }),
    "profile_init",
  );
}

describe("connected accounts in the profile flow", () => {
  it("connects a provider to the signed-in user, takes the token back without a new session, lists it", async () => {
    const tenant = await tenantWithPeer();
    const { user, token } = await platformUser(tenant);
    const profile = await openProfile(tenant, token);
    expect(profile.actions.disconnect_thirdparty_oauth_provider).toBeUndefined();
    expect(profile.actions.connect_thirdparty_oauth_provider!.inputs.provider!.allowed_values).toEqual([
      { value: "acme", name: "Acme" },
    ]);

    // An address the user does not have: connecting never goes by email.
    peer.account = {
      sub: `sub-${randomUUID()}`,
      email: `${randomUUID()}@other.example`,
      email_verified: false,
    };
    const { thirdparty, location, binding } = await throughPeer(
      tenant,
      profile,
      "connect_thirdparty_oauth_provider",
      { token },
    );
    const [row] = await identityRows(tenant, user.id);
    expect(row).toMatchObject({ userId: user.id, providerId: "acme", subject: peer.account.sub });

    const sessionsBefore = await sessionCount(tenant, user);
    const hankoToken = location.searchParams.get("hanko_token");
    const back = hankoToken
      ? await act(tenant, thirdparty, "exchange_token", { token: hankoToken }, { token, binding })
      : await act(tenant, thirdparty, "back", {}, { token });
    const init = expectState(back, "profile_init");
    expect(sessionCookieOf(back.res)).toBeUndefined();
    expect(await sessionCount(tenant, user)).toBe(sessionsBefore);
    expect((init.payload as { user: { identities: unknown } }).user.identities).toEqual([
      { id: peer.account.sub, provider: "Acme", identity_id: row!.id },
    ]);
    // Every provider is connected now: nothing left to connect; the identity can be removed.
    expect(init.actions.connect_thirdparty_oauth_provider).toBeUndefined();
    expect(init.actions.disconnect_thirdparty_oauth_provider!.inputs).toEqual({
      identity_id: { name: "identity_id", type: "string", required: true, max_length: 36 },
    });
    if (hankoToken) {
      // Taken back: it cannot start a session later.
      const exchange = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
      const replay = await act(tenant, exchange, "exchange_token", { token: hankoToken }, { binding });
      expectFlowError(replay, "form_data_invalid_error", 400, "thirdparty");
    }

    const removed = await act(
      tenant,
      init,
      "disconnect_thirdparty_oauth_provider",
      { identity_id: row!.id },
      {
        token,
      },
    );
    const after = expectState(removed, "profile_init");
    expect((after.payload as { user: { identities?: unknown } }).user.identities).toBeUndefined();
    expect(await identityRows(tenant, user.id)).toEqual([]);
  });

  it("refuses another user's token in the profile's exchange_token", async () => {
    const tenant = await tenantWithPeer();
    const { token } = await platformUser(tenant);
    const other = await platformUser(tenant);
    const profile = await openProfile(tenant, token);
    const started = await act(
      tenant,
      profile,
      "connect_thirdparty_oauth_provider",
      { provider: "acme", redirect_to: REDIRECT_TO },
      { token },
    );
    const thirdparty = expectState(started, "thirdparty");
    const foreign = await mintOneTimeToken(tenant, other.user.id, {
      amr: ["ext:acme"],
      binding: bindingOf(),
    });
    const refused = await act(
      tenant,
      thirdparty,
      "exchange_token",
      { token: foreign },
      { token, binding: bindingCookie() },
    );
    const body = expectFlowError(refused, "form_data_invalid_error", 400, "thirdparty");
    expect(body.actions.exchange_token!.inputs.token!.error?.code).toBe("value_invalid_error");
    expect(sessionCookieOf(refused.res)).toBeUndefined();
  });

  it("refuses bad connect inputs and unknown, malformed or another user's identity ids, changing nothing", async () => {
    const tenant = await tenantWithPeer();
    const { user, token } = await platformUser(tenant);
    const other = await platformUser(tenant);
    const mine = await addIdentity(tenant, user, "acme");
    const theirs = await addIdentity(tenant, other.user, "acme");
    await addPeerProviderNamed(tenant, "second");
    const profile = await openProfile(tenant, token);
    // acme is connected already: only `second` is offered.
    expect(profile.actions.connect_thirdparty_oauth_provider!.inputs.provider!.allowed_values).toEqual([
      { value: "second", name: "Second" },
    ]);
    let state = profile;
    const connected = await act(
      tenant,
      state,
      "connect_thirdparty_oauth_provider",
      { provider: "acme", redirect_to: REDIRECT_TO },
      { token },
    );
    state = expectFlowError(connected, "form_data_invalid_error", 400, "profile_init");
    expect(state.actions.connect_thirdparty_oauth_provider!.inputs.provider!.error?.code).toBe(
      "value_invalid_error",
    );
    const open = await act(
      tenant,
      state,
      "connect_thirdparty_oauth_provider",
      { provider: "second", redirect_to: "https://evil.example/" },
      { token },
    );
    state = expectFlowError(open, "form_data_invalid_error", 400, "profile_init");
    expect(state.actions.connect_thirdparty_oauth_provider!.inputs.redirect_to!.error?.code).toBe(
      "value_invalid_error",
    );
    expect(await stateRows(tenant)).toEqual([]);

    for (const identityId of [theirs, randomUUID(), "not-a-uuid"]) {
      const refused = await act(
        tenant,
        state,
        "disconnect_thirdparty_oauth_provider",
        { identity_id: identityId },
        {
          token,
        },
      );
      state = expectFlowError(refused, "not_found", 404, "profile_init");
    }
    const missing = await act(tenant, state, "disconnect_thirdparty_oauth_provider", {}, { token });
    state = expectFlowError(missing, "form_data_invalid_error", 400, "profile_init");
    expect((await identityRows(tenant)).map((row) => row.id).sort()).toEqual([mine, theirs].sort());
  });

  it("keeps the last way to sign in", async () => {
    // No passcodes, passwords or passkeys: the identity is the user's only way in.
    const tenant = await createPublicTenant({
      platform: { passcodes: { enabled: false }, password: { enabled: false }, passkeys: { enabled: false } },
    });
    await addPeerProvider(tenant);
    const { user, token } = await platformUser(tenant);
    const only = await addIdentity(tenant, user, "acme");
    const profile = await openProfile(tenant, token);
    const refused = await act(
      tenant,
      profile,
      "disconnect_thirdparty_oauth_provider",
      { identity_id: only },
      {
        token,
      },
    );
    expectFlowError(refused, "operation_not_permitted_error", 403, "profile_init");
    expect(await identityRows(tenant, user.id)).toHaveLength(1);
  });
});

describe("identities in the admin API's user detail", () => {
  it("shows Hanko's admin Identity", async () => {
    const { tenant, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
    await addPeerProvider(tenant);
    const { user } = await platformUser(tenant);
    const id = await addIdentity(tenant, user, "acme");
    const res = await adminCall(userRoute.GET, `/t/${tenant.id}/admin/users/${user.id}`, keys.admin, {
      params: { tenantId: tenant.id, userId: user.id },
    });
    const body = (await res.json()) as { identities: unknown };
    expect(res.status).toBe(200);
    expect(body.identities).toEqual([
      {
        id,
        provider_id: `subject-of-${user.id}`,
        provider_name: "acme",
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      },
    ]);
  });
});

async function sessionCount(tenant: Tenant, user: User): Promise<number> {
  const db = await executor();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenant.id), eq(sessions.userId, user.id)));
  return rows.length;
}

/** An identity row for the user (as a sign-in through the provider leaves it). */
async function addIdentity(tenant: Tenant, user: User, providerId: string): Promise<string> {
  const db = await executor();
  const [row] = await db
    .insert(identities)
    .values({
      tenantId: tenant.id,
      userId: user.id,
      kind: "oauth",
      providerId,
      subject: `subject-of-${user.id}`,
      email: null,
      emailVerified: false,
    })
    .returning();
  return row!.id;
}

function addPeerProviderNamed(tenant: Tenant, slug: string) {
  return addOidcPeerProvider(tenant, peer, { slug });
}
