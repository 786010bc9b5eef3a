import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as emailRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/emails/[emailId]/route";
import * as setPrimaryRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/emails/[emailId]/set_primary/route";
import * as emailsRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/emails/route";
import { findUserEmails } from "@/lib/emails";
import { upsertExternalUser } from "@/lib/users";
import { adminCall } from "@/tests/helpers/admin-api";
import {
  adminFixture,
  auditEvents,
  expectAdminAuth,
  expectAdminError,
  type AdminFixture,
} from "@/tests/helpers/admin-user-resources";
import { createUserWithEmail } from "@/tests/helpers/public-api";
import { expectFailureDetails } from "@/tests/helpers/audit";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const base = (fx: AdminFixture, userId = fx.user.id) => `/t/${fx.tenant.id}/admin/users/${userId}/emails`;
const params = (fx: AdminFixture, extra: Record<string, string> = {}) => ({
  tenantId: fx.tenant.id,
  userId: fx.user.id,
  ...extra,
});

const list = (fx: AdminFixture, userId = fx.user.id, key = fx.admin) =>
  adminCall(emailsRoute.GET, base(fx, userId), key, { params: { ...params(fx), userId } });
const create = (fx: AdminFixture, body: unknown, userId = fx.user.id) =>
  adminCall(emailsRoute.POST, base(fx, userId), fx.admin, {
    method: "POST",
    body,
    params: { ...params(fx), userId },
  });
const getOne = (fx: AdminFixture, emailId: string, userId = fx.user.id) =>
  adminCall(emailRoute.GET, `${base(fx, userId)}/${emailId}`, fx.admin, {
    params: { ...params(fx), userId, emailId },
  });
const remove = (fx: AdminFixture, emailId: string, userId = fx.user.id) =>
  adminCall(emailRoute.DELETE, `${base(fx, userId)}/${emailId}`, fx.admin, {
    method: "DELETE",
    params: { ...params(fx), userId, emailId },
  });
const setPrimary = (fx: AdminFixture, emailId: string, userId = fx.user.id) =>
  adminCall(setPrimaryRoute.POST, `${base(fx, userId)}/${emailId}/set_primary`, fx.admin, {
    method: "POST",
    params: { ...params(fx), userId, emailId },
  });

const addresses = async (fx: AdminFixture, userId = fx.user.id) =>
  (await findUserEmails(fx.tenant.id, userId)).map((row) => [row.address, row.isPrimary, row.verified]);

describe("GET /t/{tenant_id}/admin/users/{user_id}/emails", () => {
  it("lists the user's addresses in Hanko's admin Email shape", async () => {
    const fx = await adminFixture();
    const res = await list(fx);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>[];
    const [row] = await findUserEmails(fx.tenant.id, fx.user.id);
    expect(body).toEqual([
      {
        id: row!.id,
        address: row!.address,
        is_verified: true,
        is_primary: true,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    ]);
  });

  it("answers 404 for an unknown user and another tenant's user, 400 for a user id that is not a UUID", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    await expectAdminError(await list(fx, randomUUID()), 404);
    await expectAdminError(await list(fx, other.user.id), 404);
    await expectAdminError(await list(fx, "not-a-uuid"), 400);
  });

  it("answers 401 without the tenant's admin key", async () => {
    const fx = await adminFixture();
    await expectAdminAuth(emailsRoute.GET, fx, { method: "GET", path: base(fx), params: params(fx) });
  });
});

describe("POST /t/{tenant_id}/admin/users/{user_id}/emails", () => {
  it("adds an address (201), lower-cased, not primary unless asked, audited with the key as actor", async () => {
    const fx = await adminFixture();
    const res = await create(fx, { address: "New.One@Example.com", is_primary: false, is_verified: true });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      id: expect.any(String),
      address: "new.one@example.com",
      is_verified: true,
      is_primary: false,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const fetched = await getOne(fx, body.id as string);
    expect(await fetched.json()).toEqual(body);
    const [event] = await auditEvents(fx.tenant.id, "email.create.succeeded");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({ userId: fx.user.id, emailId: body.id });
  });

  it("makes the new address primary when asked (the old one is no longer primary)", async () => {
    const fx = await adminFixture();
    const res = await create(fx, {
      address: `${randomUUID()}@example.com`,
      is_primary: true,
      is_verified: true,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; is_primary: boolean };
    expect(body.is_primary).toBe(true);
    const primaries = (await findUserEmails(fx.tenant.id, fx.user.id)).filter((row) => row.isPrimary);
    expect(primaries.map((row) => row.id)).toEqual([body.id]);
  });

  it("answers 409 for an address another user of the tenant holds, and changes nothing", async () => {
    const fx = await adminFixture();
    const taken = `${randomUUID()}@example.com`;
    await createUserWithEmail(fx.tenant, taken);
    const before = await addresses(fx);
    await expectAdminError(await create(fx, { address: taken, is_primary: false, is_verified: true }), 409);
    await expectAdminError(
      await create(fx, { address: before[0]![0], is_primary: false, is_verified: true }),
      409,
    );
    expect(await addresses(fx)).toEqual(before);
    const [failed] = await auditEvents(fx.tenant.id, "email.create.failed");
    expect(failed!.actor).toMatch(/^api_key:/);
  });

  it("accepts an address another tenant holds", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    const [theirs] = await findUserEmails(other.tenant.id, other.user.id);
    expect(
      (await create(fx, { address: theirs!.address, is_primary: false, is_verified: false })).status,
    ).toBe(201);
  });

  it("refuses an unverified primary when the tenant requires verification (409), adding nothing", async () => {
    const fx = await adminFixture({ platform: { emails: { requireVerification: true } } });
    const before = await addresses(fx);
    const res = await create(fx, {
      address: `${randomUUID()}@example.com`,
      is_primary: true,
      is_verified: false,
    });
    await expectAdminError(res, 409);
    expect(await addresses(fx)).toEqual(before);
  });

  it("answers 400 for bad input and changes nothing", async () => {
    const fx = await adminFixture();
    const before = await addresses(fx);
    for (const body of [
      {},
      { address: "not-an-address" },
      { address: `${"a".repeat(250)}@example.com` },
      { address: "x@example.com", is_primary: "yes" },
      { address: "x@example.com", is_verified: 1 },
      "not json",
    ]) {
      await expectAdminError(await create(fx, body), 400);
    }
    expect(await addresses(fx)).toEqual(before);
  });

  it("answers 404 for an unknown user or another tenant's user", async () => {
    const fx = await adminFixture();
    const other = await adminFixture();
    const body = { address: `${randomUUID()}@example.com`, is_primary: false, is_verified: true };
    await expectAdminError(await create(fx, body, randomUUID()), 404);
    await expectAdminError(await create(fx, body, other.user.id), 404);
    expect(await addresses(other)).toHaveLength(1);
  });

  it("answers 404 for a Passkey API user (external id) on every email route, adding nothing", async () => {
    const fx = await adminFixture();
    const external = await upsertExternalUser(fx.tenant.id, {
      externalId: "ext-emails",
      username: "ext",
      displayName: "",
      icon: null,
    });
    const body = { address: `${randomUUID()}@example.com`, is_primary: true, is_verified: true };
    await expectAdminError(await list(fx, external.id), 404);
    await expectAdminError(await create(fx, body, external.id), 404);
    const [own] = await findUserEmails(fx.tenant.id, fx.user.id);
    for (const call of [getOne, remove, setPrimary]) {
      await expectAdminError(await call(fx, own!.id, external.id), 404);
    }
    expect(await addresses(fx, external.id)).toEqual([]);
    const [failed] = await auditEvents(fx.tenant.id, "email.create.failed");
    expectFailureDetails(failed!.details, { status: 404 });
  });

  it("answers 401 without the tenant's admin key", async () => {
    const fx = await adminFixture();
    const body = { address: `${randomUUID()}@example.com` };
    await expectAdminAuth(emailsRoute.POST, fx, { method: "POST", path: base(fx), params: params(fx), body });
    expect(await addresses(fx)).toHaveLength(1);
  });
});

describe("GET|DELETE /t/{tenant_id}/admin/users/{user_id}/emails/{email_id}", () => {
  it("answers 404 for another user's or another tenant's address, 400 for an id that is not a UUID", async () => {
    const fx = await adminFixture();
    const sameTenant = await createUserWithEmail(fx.tenant);
    const [theirs] = await findUserEmails(fx.tenant.id, sameTenant.id);
    const other = await adminFixture();
    const [otherTenants] = await findUserEmails(other.tenant.id, other.user.id);
    await expectAdminError(await getOne(fx, theirs!.id), 404);
    await expectAdminError(await getOne(fx, otherTenants!.id), 404);
    await expectAdminError(await getOne(fx, randomUUID()), 404);
    await expectAdminError(await getOne(fx, "nope"), 400);
    await expectAdminError(await remove(fx, theirs!.id), 404);
    await expectAdminError(await remove(fx, otherTenants!.id), 404);
    // The other user's address is addressed through its own user, in its own tenant.
    await expectAdminError(await getOne(other, otherTenants!.id, fx.user.id), 404);
    expect(await addresses(other)).toHaveLength(1);
    expect(await findUserEmails(fx.tenant.id, sameTenant.id)).toHaveLength(1);
  });

  it("deletes a non-primary address (204), audited; refuses the primary one (409)", async () => {
    const fx = await adminFixture();
    const [primary] = await findUserEmails(fx.tenant.id, fx.user.id);
    const added = (await (
      await create(fx, { address: `${randomUUID()}@example.com`, is_verified: true })
    ).json()) as { id: string };

    await expectAdminError(await remove(fx, primary!.id), 409);
    const res = await remove(fx, added.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await findUserEmails(fx.tenant.id, fx.user.id)).map((row) => row.id)).toEqual([primary!.id]);
    const [event] = await auditEvents(fx.tenant.id, "email.delete.succeeded");
    expect(event!.actor).toMatch(/^api_key:/);
    expect(event!.details).toMatchObject({ userId: fx.user.id, emailId: added.id });
    await expectAdminError(await getOne(fx, added.id), 404);
  });

  it("answers 401 without the tenant's admin key, and deletes nothing", async () => {
    const fx = await adminFixture();
    const [primary] = await findUserEmails(fx.tenant.id, fx.user.id);
    const request = { path: `${base(fx)}/${primary!.id}`, params: params(fx, { emailId: primary!.id }) };
    await expectAdminAuth(emailRoute.GET, fx, { method: "GET", ...request });
    await expectAdminAuth(emailRoute.DELETE, fx, { method: "DELETE", ...request });
  });
});

describe("POST /t/{tenant_id}/admin/users/{user_id}/emails/{email_id}/set_primary", () => {
  it("makes the address primary (204), audited; already primary is 204 too", async () => {
    const fx = await adminFixture();
    const [old] = await findUserEmails(fx.tenant.id, fx.user.id);
    const added = (await (
      await create(fx, { address: `${randomUUID()}@example.com`, is_verified: true })
    ).json()) as { id: string };

    const res = await setPrimary(fx, added.id);
    expect(res.status).toBe(204);
    expect((await (await getOne(fx, added.id)).json()).is_primary).toBe(true);
    expect((await (await getOne(fx, old!.id)).json()).is_primary).toBe(false);
    const [event] = await auditEvents(fx.tenant.id, "email.set_primary.succeeded");
    expect(event!.actor).toMatch(/^api_key:/);
    expect((await setPrimary(fx, added.id)).status).toBe(204);
  });

  it("refuses an unverified address when the tenant requires verification (409), changing nothing", async () => {
    const fx = await adminFixture({ platform: { emails: { requireVerification: true } } });
    const added = (await (
      await create(fx, { address: `${randomUUID()}@example.com`, is_verified: false })
    ).json()) as { id: string };
    const before = await addresses(fx);
    await expectAdminError(await setPrimary(fx, added.id), 409);
    expect(await addresses(fx)).toEqual(before);
  });

  it("answers 404 for another user's address or an unknown user, 401 without the admin key", async () => {
    const fx = await adminFixture();
    const sameTenant = await createUserWithEmail(fx.tenant);
    const [theirs] = await findUserEmails(fx.tenant.id, sameTenant.id);
    await expectAdminError(await setPrimary(fx, theirs!.id), 404);
    await expectAdminError(await setPrimary(fx, theirs!.id, randomUUID()), 404);
    const [mine] = await findUserEmails(fx.tenant.id, fx.user.id);
    await expectAdminAuth(setPrimaryRoute.POST, fx, {
      method: "POST",
      path: `${base(fx)}/${mine!.id}/set_primary`,
      params: params(fx, { emailId: mine!.id }),
    });
  });
});
