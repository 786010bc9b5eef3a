import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as credentialRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/webauthn_credentials/[credentialId]/route";
import * as credentialsRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/webauthn_credentials/route";
import { credentialWire } from "@/lib/wire/credentials";
import { findUserCredentials } from "@/lib/credentials";
import { executor } from "@/lib/db";
import { webauthnCredentials } from "@/lib/db/schema";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { createUserWithEmail } from "@/tests/helpers/public-api";

/** A stored credential of the user (the ceremonies that make them have their own tests). */
async function addCredential(fx: AdminFixture, userId: string, isMfa = false, used = false) {
  const id = `cred-${randomUUID()}`;
  const db = await executor();
  await db.insert(webauthnCredentials).values({
    tenantId: fx.tenant.id,
    id,
    userId,
    name: isMfa ? "Security key" : "Phone",
    publicKey: "pQECAyYgASFYIA",
    transports: ["internal", "hybrid"],
    aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
    attestationType: "none",
    backupEligible: true,
    backupState: false,
    userVerified: true,
    isMfa,
    ...(used ? { lastUsedAt: new Date("2026-01-02T03:04:05.678Z") } : {}),
  });
  return id;
}

const base = (fx: AdminFixture, userId = fx.user.id) =>
  `/t/${fx.tenant.id}/admin/users/${userId}/webauthn_credentials`;
const list = (fx: AdminFixture, userId = fx.user.id) =>
  adminCall(credentialsRoute.GET, base(fx, userId), fx.admin, { params: { tenantId: fx.tenant.id, userId } });
const getOne = (fx: AdminFixture, credentialId: string, userId = fx.user.id) =>
  adminCall(credentialRoute.GET, `${base(fx, userId)}/${credentialId}`, fx.admin, {
    params: { tenantId: fx.tenant.id, userId, credentialId },
  });
const remove = (fx: AdminFixture, credentialId: string, userId = fx.user.id) =>
  adminCall(credentialRoute.DELETE, `${base(fx, userId)}/${credentialId}`, fx.admin, {
    method: "DELETE",
    params: { tenantId: fx.tenant.id, userId, credentialId },
  });
const ids = async (fx: AdminFixture, userId = fx.user.id) =>
  (await findUserCredentials(fx.tenant.id, userId)).map((c) => c.id);

describe("GET /t/{tenant_id}/admin/users/{user_id}/webauthn_credentials", () => {
  it("lists passkeys and MFA keys in Hanko's admin WebauthnCredential shape", async () => {
    const fx = await adminFixture();
    const passkey = await addCredential(fx, fx.user.id, false, true);
    const key = await addCredential(fx, fx.user.id, true);
    const res = await list(fx);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>[];
    const byId = Object.fromEntries(body.map((c) => [c.id, c]));
    expect(byId[passkey]).toEqual({
      id: passkey,
      name: "Phone",
      public_key: "pQECAyYgASFYIA",
      attestation_type: "none",
      aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
      last_used_at: "2026-01-02T03:04:05.678Z",
      created_at: expect.stringMatching(/Z$/),
      transports: ["internal", "hybrid"],
      backup_eligible: true,
      backup_state: false,
      mfa_only: false,
    });
    expect(byId[key]).toMatchObject({ mfa_only: true });
    expect(byId[key]).not.toHaveProperty("last_used_at");
    expect(body).toHaveLength(2);
  });

  it("keeps the public credential wire as it was (adminCredentialWire has the same fields)", async () => {
    const fx = await adminFixture();
    const id = await addCredential(fx, fx.user.id);
    const [row] = await findUserCredentials(fx.tenant.id, fx.user.id);
    expect(await (await getOne(fx, id)).json()).toEqual(credentialWire(row!));
  });

  it("answers [] for a user without credentials, 404 for an unknown or another tenant's user, 400 for a bad id", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    expect(await (await list(fx)).json()).toEqual([]);
    await expectAdminError(await list(fx, randomUUID()), 404);
    await expectAdminError(await list(fx, other.user.id), 404);
    await expectAdminError(await list(fx, "42"), 400);
  });

  it("answers 401 without the tenant's admin key", async () => {
    const fx = await adminFixture();
    await expectAdminAuth(credentialsRoute.GET, fx, {
      method: "GET",
      path: base(fx),
      params: { tenantId: fx.tenant.id, userId: fx.user.id },
    });
  });
});

describe("GET|DELETE /t/{tenant_id}/admin/users/{user_id}/webauthn_credentials/{credential_id}", () => {
  it("deletes the credential (204), audited with the key as actor", async () => {
    const fx = await adminFixture();
    const keep = await addCredential(fx, fx.user.id);
    const gone = await addCredential(fx, fx.user.id, true);
    const res = await remove(fx, gone);
    expect(res.status).toBe(204);
    expect(await ids(fx)).toEqual([keep]);
    await expectAdminError(await getOne(fx, gone), 404);
    await expectAdminError(await remove(fx, gone), 404);
    const [event] = await auditEvents(fx.tenant.id, "webauthn.credential.delete.succeeded");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({ user_id: fx.user.id, credential_id: gone, mfa_only: true });
  });

  it("answers 404 for another user's or another tenant's credential and deletes nothing", async () => {
    const fx = await adminFixture();
    const neighbour = await createUserWithEmail(fx.tenant);
    const theirs = await addCredential(fx, neighbour.id);
    const other = await adminFixture();
    const otherTenants = await addCredential(other, other.user.id);
    await expectAdminError(await getOne(fx, theirs), 404);
    await expectAdminError(await remove(fx, theirs), 404);
    await expectAdminError(await getOne(fx, otherTenants), 404);
    await expectAdminError(await remove(fx, otherTenants), 404);
    await expectAdminError(await remove(fx, otherTenants, other.user.id), 404);
    expect(await ids(fx, neighbour.id)).toEqual([theirs]);
    expect(await ids(other)).toEqual([otherTenants]);
  });

  it("answers 400 for an id that is not base64url, 401 without the admin key (deleting nothing)", async () => {
    const fx = await adminFixture();
    const id = await addCredential(fx, fx.user.id);
    await expectAdminError(await getOne(fx, "not base64url!"), 400);
    await expectAdminError(await remove(fx, "a/b"), 400);
    const request = {
      path: `${base(fx)}/${id}`,
      params: { tenantId: fx.tenant.id, userId: fx.user.id, credentialId: id },
    };
    await expectAdminAuth(credentialRoute.GET, fx, { method: "GET", ...request });
    await expectAdminAuth(credentialRoute.DELETE, fx, { method: "DELETE", ...request });
    expect(await ids(fx)).toEqual([id]);
  });
});
