import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import * as createSessionRoute from "@/app/(admin-api)/t/[tenantId]/admin/sessions/route";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import * as meRoute from "@/app/(public-api)/t/[tenantId]/me/route";
import * as logoutRoute from "@/app/(public-api)/t/[tenantId]/logout/route";
import type { FlowResponse } from "@/lib/flows";
import { issueSession, findUserSessions } from "@/lib/sessions";
import { upsertExternalUser } from "@/lib/users";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { act, expectState, startFlow } from "@/tests/helpers/flows";
import { addTotp } from "@/tests/helpers/login";
import { TEST_CONTEXT, publicCall, sessionFor } from "@/tests/helpers/public-api";
import { expectFailureDetails } from "@/tests/helpers/audit";

const path = (fx: AdminFixture) => `/t/${fx.tenant.id}/admin/sessions`;
const impersonate = (fx: AdminFixture, body: unknown) =>
  adminCall(createSessionRoute.POST, path(fx), fx.admin, {
    method: "POST",
    body,
    params: { tenantId: fx.tenant.id },
  });
const validate = async (fx: AdminFixture, token: string) =>
  (await (
    await publicCall(validateRoute.POST, fx.tenant, "POST", "/sessions/validate", {
      body: { session_token: token },
    })
  ).json()) as { is_valid: boolean; claims?: Record<string, unknown> };
const tokenOf = async (res: Response) => ((await res.json()) as { session_token: string }).session_token;

/** The profile flow signed in with `token`: preflight → register_client_capabilities → profile_init. */
async function openProfile(fx: AdminFixture, token: string): Promise<FlowResponse> {
  const start = expectState(await startFlow(fx.tenant, "profile", { token }), "preflight");
  const capabilities = { webauthn_available: true };
  return expectState(
    await act(fx.tenant, start, "register_client_capabilities", capabilities, { token }),
    "profile_init",
  );
}

describe("POST /t/{tenant_id}/admin/sessions (impersonation)", () => {
  it("answers {session_token}: a session JWT of the tenant that /sessions/validate and /me accept", async () => {
    const fx = await adminFixture();
    const res = await impersonate(fx, { user_id: fx.user.id });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { session_token: string };
    expect(Object.keys(body)).toEqual(["session_token"]);

    const validation = await validate(fx, body.session_token);
    expect(validation.is_valid).toBe(true);
    expect(validation.claims).toMatchObject({ subject: fx.user.id, amr: [] });
    const claims = decodeJwt(body.session_token);
    expect(claims.sub).toBe(fx.user.id);
    expect(claims.aud).toEqual([fx.tenant.rpId]);
    expect(claims.exp! - claims.iat!).toBe(fx.tenant.sessionLifetimeSeconds);

    const me = await publicCall(meRoute.GET, fx.tenant, "GET", "/me", { token: body.session_token });
    expect(me.status).toBe(200);
    expect((await me.json()).user_id).toBe(fx.user.id);
  });

  it("keeps user_agent and ip_address on the session row (none when not given)", async () => {
    const fx = await adminFixture();
    const given = await impersonate(fx, {
      user_id: fx.user.id,
      user_agent: "Support tool",
      ip_address: "2001:db8::1",
    });
    const plain = await impersonate(fx, { user_id: fx.user.id });
    const ids = [given, plain].map(
      async (res) => decodeJwt(((await res.json()) as { session_token: string }).session_token).session_id,
    );
    const [givenId, plainId] = await Promise.all(ids);
    const rows = await findUserSessions(fx.tenant.id, fx.user.id);
    expect(rows.find((row) => row.id === givenId)).toMatchObject({
      userAgent: "Support tool",
      ip: "2001:db8::1",
      amr: [],
    });
    expect(rows.find((row) => row.id === plainId)).toMatchObject({ userAgent: null, ip: null });
  });

  it("is audited with the key as actor and the user as the impersonated subject", async () => {
    const fx = await adminFixture();
    const { session_token } = (await (await impersonate(fx, { user_id: fx.user.id })).json()) as {
      session_token: string;
    };
    const [event] = await auditEvents(fx.tenant.id, "session.created");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({
      sessionId: decodeJwt(session_token).session_id,
      impersonated_user_id: fx.user.id,
      amr: [],
    });
  });

  it("marks the session: the JWT's RFC 8693 act claim names the API key, the row keeps it", async () => {
    const fx = await adminFixture();
    const token = await tokenOf(await impersonate(fx, { user_id: fx.user.id }));
    const [created] = await auditEvents(fx.tenant.id, "session.created");
    const actor = created!.actor!;
    expect(actor).toMatch(/^api_key:/);
    const claims = decodeJwt(token);
    expect(claims.act).toEqual({ sub: actor });
    const [row] = await findUserSessions(fx.tenant.id, fx.user.id);
    expect(row!.impersonatedBy).toBe(actor);
    // /sessions/validate shows the claims it knows (Hanko's), the session stays valid.
    expect((await validate(fx, token)).is_valid).toBe(true);
    // A login's session has neither.
    const own = await sessionFor(fx.tenant, fx.user);
    expect(decodeJwt(own).act).toBeUndefined();
    const rows = await findUserSessions(fx.tenant.id, fx.user.id);
    expect(rows.find((r) => r.id === decodeJwt(own).session_id)!.impersonatedBy).toBeNull();
  });

  it("audits what is done with the session with details.impersonated_by (profile flow, logout), the user as actor", async () => {
    const fx = await adminFixture();
    const token = await tokenOf(await impersonate(fx, { user_id: fx.user.id }));
    const actor = (await auditEvents(fx.tenant.id, "session.created"))[0]!.actor;

    const state = await openProfile(fx, token);
    expectState(
      await act(fx.tenant, state, "patch_metadata", { patch_metadata: { theme: "dark" } }, { token }),
      "profile_init",
    );
    const [changed] = await auditEvents(fx.tenant.id, "user.metadata.updated");
    expect(changed).toMatchObject({
      actor: fx.user.id,
      details: { userId: fx.user.id, source: "profile", impersonated_by: actor },
    });
    const [step] = await auditEvents(fx.tenant.id, "flow.profile.patch_metadata.succeeded");
    expect(step).toMatchObject({ actor: fx.user.id, details: { impersonated_by: actor } });

    // A session-authenticated public route.
    const out = await publicCall(logoutRoute.POST, fx.tenant, "POST", "/logout", { token });
    expect(out.status).toBe(204);
    const [loggedOut] = await auditEvents(fx.tenant.id, "user.logged_out");
    expect(loggedOut).toMatchObject({ actor: fx.user.id, details: { impersonated_by: actor } });
  });

  it("leaves the records of the user's own session unmarked", async () => {
    const fx = await adminFixture();
    await impersonate(fx, { user_id: fx.user.id });
    const token = await sessionFor(fx.tenant, fx.user);
    const state = await openProfile(fx, token);
    await act(fx.tenant, state, "patch_metadata", { patch_metadata: { theme: "light" } }, { token });
    const [changed] = await auditEvents(fx.tenant.id, "user.metadata.updated");
    expect(changed!.actor).toBe(fx.user.id);
    expect(changed!.details).not.toHaveProperty("impersonated_by");
  });

  it("needs no second factor, even when the tenant enforces the one the user has", async () => {
    const fx = await adminFixture({ platform: { mfa: { enabled: true, totp: true } } });
    await addTotp(fx.tenant, fx.user);
    // A one-factor login would be refused.
    await expect(issueSession(fx.tenant, fx.user, ["pwd"], TEST_CONTEXT)).rejects.toMatchObject({
      code: "SECOND_FACTOR_REQUIRED",
    });
    const res = await impersonate(fx, { user_id: fx.user.id });
    expect(res.status).toBe(200);
    expect(
      (await validate(fx, ((await res.json()) as { session_token: string }).session_token)).is_valid,
    ).toBe(true);
  });

  it("answers 404 for an unknown user or another tenant's user, audited as session.impersonate.failed", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    await expectAdminError(await impersonate(fx, { user_id: randomUUID() }), 404);
    await expectAdminError(await impersonate(fx, { user_id: other.user.id }), 404);
    expect(await findUserSessions(other.tenant.id, other.user.id)).toEqual([]);
    const [failed] = await auditEvents(fx.tenant.id, "session.impersonate.failed");
    expect(failed!.actor).toMatch(/^api_key:/);
  });

  it("answers 404 for a Passkey API user (external id), as GET /users/{id} does", async () => {
    const fx = await adminFixture();
    const external = await upsertExternalUser(fx.tenant.id, {
      externalId: "ext-impersonation",
      username: "ext",
      displayName: "",
      icon: null,
    });
    await expectAdminError(await impersonate(fx, { user_id: external.id }), 404);
    expect(await findUserSessions(fx.tenant.id, external.id)).toEqual([]);
    const [failed] = await auditEvents(fx.tenant.id, "session.impersonate.failed");
    expectFailureDetails(failed!.details, { status: 404 });
  });

  it("a token of one tenant is not valid in another", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    const { session_token } = (await (await impersonate(fx, { user_id: fx.user.id })).json()) as {
      session_token: string;
    };
    expect((await validate(other, session_token)).is_valid).toBe(false);
  });

  it("answers 400 for bad input and starts no session", async () => {
    const fx = await adminFixture();
    for (const body of [
      {},
      { user_id: "not-a-uuid" },
      { user_id: fx.user.id, ip_address: "999.1.1.1" },
      { user_id: fx.user.id, ip_address: "localhost" },
      { user_id: fx.user.id, user_agent: 42 },
      { user_id: fx.user.id, user_agent: "x".repeat(513) },
      "[]",
    ]) {
      await expectAdminError(await impersonate(fx, body), 400);
    }
    expect(await findUserSessions(fx.tenant.id, fx.user.id)).toEqual([]);
  });

  it("answers 401 without the tenant's admin key, starting no session", async () => {
    const fx = await adminFixture();
    await expectAdminAuth(createSessionRoute.POST, fx, {
      method: "POST",
      path: path(fx),
      params: { tenantId: fx.tenant.id },
      body: { user_id: fx.user.id },
    });
    expect(await findUserSessions(fx.tenant.id, fx.user.id)).toEqual([]);
  });
});
