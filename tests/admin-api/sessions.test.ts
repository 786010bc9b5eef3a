import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import * as sessionRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/sessions/[sessionId]/route";
import * as sessionsRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/sessions/route";
import * as impersonateRoute from "@/app/(admin-api)/t/[tenantId]/admin/sessions/route";
import { createSurfaceDocument } from "@/lib/openapi";
import { findUserSessions, validateSessionToken } from "@/lib/sessions";
import { upsertExternalUser } from "@/lib/users";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { createUserWithEmail, sessionFor } from "@/tests/helpers/public-api";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const base = (fx: AdminFixture, userId = fx.user.id) => `/t/${fx.tenant.id}/admin/users/${userId}/sessions`;
const list = (fx: AdminFixture, userId = fx.user.id) =>
  adminCall(sessionsRoute.GET, base(fx, userId), fx.admin, { params: { tenantId: fx.tenant.id, userId } });
const revoke = (fx: AdminFixture, sessionId: string, userId = fx.user.id) =>
  adminCall(sessionRoute.DELETE, `${base(fx, userId)}/${sessionId}`, fx.admin, {
    method: "DELETE",
    params: { tenantId: fx.tenant.id, userId, sessionId },
  });
const sessionIds = async (fx: AdminFixture, userId = fx.user.id) =>
  (await findUserSessions(fx.tenant.id, userId)).map((row) => row.id);

describe("GET /t/{tenant_id}/admin/users/{user_id}/sessions", () => {
  it("lists the user's sessions in Hanko's Session shape, only this user's", async () => {
    const fx = await adminFixture();
    await sessionFor(fx.tenant, fx.user);
    const neighbour = await createUserWithEmail(fx.tenant);
    await sessionFor(fx.tenant, neighbour);
    const [row] = await findUserSessions(fx.tenant.id, fx.user.id);

    const res = await list(fx);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        id: row!.id,
        user_id: fx.user.id,
        user_agent: "vitest",
        ip_address: "127.0.0.1",
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
        last_used: expect.stringMatching(ISO),
        impersonated_by: null,
      },
    ]);
  });

  it("shows impersonated_by (the API key) on a session started by POST /sessions, null on the user's own", async () => {
    const fx = await adminFixture();
    await sessionFor(fx.tenant, fx.user);
    const res = await adminCall(impersonateRoute.POST, `/t/${fx.tenant.id}/admin/sessions`, fx.admin, {
      method: "POST",
      body: { user_id: fx.user.id },
      params: { tenantId: fx.tenant.id },
    });
    const { session_token } = (await res.json()) as { session_token: string };
    const [created] = await auditEvents(fx.tenant.id, "session.created");
    const listed = (await (await list(fx)).json()) as { id: string; impersonated_by: string | null }[];
    expect(listed).toHaveLength(2);
    const marked = listed.find((session) => session.id === decodeJwt(session_token).session_id);
    expect(marked!.impersonated_by).toBe(created!.actor);
    expect(marked!.impersonated_by).toMatch(/^api_key:/);
    expect(listed.filter((session) => session !== marked).map((s) => s.impersonated_by)).toEqual([null]);
  });

  it("answers [] without sessions, 404 for an unknown or another tenant's user, 400 for a bad id", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    expect(await (await list(fx)).json()).toEqual([]);
    await expectAdminError(await list(fx, other.user.id), 404);
    await expectAdminError(await list(fx, randomUUID()), 404);
    await expectAdminError(await list(fx, "123"), 400);
  });

  it("answers 404 for a Passkey API user (external id), as GET /users/{id} does; revokes nothing", async () => {
    const fx = await adminFixture();
    const external = await upsertExternalUser(fx.tenant.id, {
      externalId: "ext-sessions",
      username: "ext",
      displayName: "",
      icon: null,
    });
    await expectAdminError(await list(fx, external.id), 404);
    await expectAdminError(await revoke(fx, randomUUID(), external.id), 404);
  });

  it("answers 401 without the tenant's admin key", async () => {
    const fx = await adminFixture();
    await expectAdminAuth(sessionsRoute.GET, fx, {
      method: "GET",
      path: base(fx),
      params: { tenantId: fx.tenant.id, userId: fx.user.id },
    });
  });
});

describe("DELETE /t/{tenant_id}/admin/users/{user_id}/sessions/{session_id}", () => {
  it("ends the session (204): its token is no longer valid; audited with the key as actor", async () => {
    const fx = await adminFixture();
    const token = await sessionFor(fx.tenant, fx.user);
    const keep = await sessionFor(fx.tenant, fx.user);
    const sessionId = decodeJwt(token).session_id as string;
    const res = await revoke(fx, sessionId);
    expect(res.status).toBe(204);
    expect((await validateSessionToken(fx.tenant, token)).valid).toBe(false);
    expect((await validateSessionToken(fx.tenant, keep)).valid).toBe(true);
    await expectAdminError(await revoke(fx, sessionId), 404);
    const [event] = await auditEvents(fx.tenant.id, "session.revoked");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({ sessionIds: [sessionId], userId: fx.user.id });
  });

  it("answers 404 for another user's or another tenant's session and ends nothing; 400 for a bad id", async () => {
    const fx = await adminFixture();
    const neighbour = await createUserWithEmail(fx.tenant);
    await sessionFor(fx.tenant, neighbour);
    const [theirs] = await sessionIds(fx, neighbour.id);
    const other = await adminFixture();
    await sessionFor(other.tenant, other.user);
    const [otherTenants] = await sessionIds(other);

    await expectAdminError(await revoke(fx, theirs!), 404);
    await expectAdminError(await revoke(fx, theirs!, randomUUID()), 404);
    await expectAdminError(await revoke(fx, otherTenants!), 404);
    await expectAdminError(await revoke(fx, otherTenants!, other.user.id), 404);
    await expectAdminError(await revoke(fx, "not-a-uuid"), 400);
    expect(await sessionIds(fx, neighbour.id)).toEqual([theirs]);
    expect(await sessionIds(other)).toEqual([otherTenants]);
    const [failed] = await auditEvents(fx.tenant.id, "session.revoke.failed");
    expect(failed!.actor).toMatch(/^api_key:/);
  });

  it("answers 401 without the tenant's admin key, ending nothing", async () => {
    const fx = await adminFixture();
    await sessionFor(fx.tenant, fx.user);
    const [id] = await sessionIds(fx);
    await expectAdminAuth(sessionRoute.DELETE, fx, {
      method: "DELETE",
      path: `${base(fx)}/${id}`,
      params: { tenantId: fx.tenant.id, userId: fx.user.id, sessionId: id! },
    });
    expect(await sessionIds(fx)).toEqual([id]);
  });
});

describe("the admin OpenAPI document", () => {
  it("documents a user's emails, credentials, password, OTP and sessions, and impersonation", () => {
    const document = createSurfaceDocument("admin")!;
    const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      ["get", "post", "put", "delete"]
        .filter((method) => item && method in item)
        .map((method) => `${method.toUpperCase()} ${template}`),
    );
    const user = "/t/{tenantId}/admin/users/{userId}";
    expect(operations).toEqual(
      expect.arrayContaining([
        `GET ${user}/emails`,
        `POST ${user}/emails`,
        `GET ${user}/emails/{emailId}`,
        `DELETE ${user}/emails/{emailId}`,
        `POST ${user}/emails/{emailId}/set_primary`,
        `GET ${user}/webauthn_credentials`,
        `GET ${user}/webauthn_credentials/{credentialId}`,
        `DELETE ${user}/webauthn_credentials/{credentialId}`,
        `GET ${user}/password`,
        `POST ${user}/password`,
        `PUT ${user}/password`,
        `DELETE ${user}/password`,
        `GET ${user}/otp`,
        `DELETE ${user}/otp`,
        `GET ${user}/sessions`,
        `DELETE ${user}/sessions/{sessionId}`,
        "POST /t/{tenantId}/admin/sessions",
      ]),
    );
    const schemas = Object.keys(document.components?.schemas ?? {});
    expect(schemas).toEqual(
      expect.arrayContaining([
        "AdminEmail",
        "WebauthnCredential",
        "AdminPassword",
        "AdminOtp",
        "AdminSession",
      ]),
    );
  });
});
