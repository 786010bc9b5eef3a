import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { saveCredential } from "@/lib/credentials";
import { executor } from "@/lib/db";
import {
  emails,
  otpSecrets,
  passcodes,
  passwords,
  sessions,
  uafRegistrations,
  userMetadata,
  users,
  webauthnCredentials,
} from "@/lib/db/schema";
import { patchMetadata } from "@/lib/metadata";
import type { Tenant } from "@/lib/tenants";
import { findUser, upsertExternalUser } from "@/lib/users";
import { adminCall } from "@/tests/helpers/admin-api";
import { TEST_CONTEXT, expectPublicError, sessionFor } from "@/tests/helpers/public-api";

function lock(which: "lock" | "unlock", tenant: Tenant, key: string | undefined, userId: string) {
  return adminCall(
    (which === "lock" ? lockRoute : unlockRoute).POST,
    `/t/${tenant.id}/admin/users/${userId}/${which}`,
    key,
    { method: "POST", params: { tenantId: tenant.id, userId } },
  );
}
import { createTestTenant } from "@/tests/helpers/tenants";
import * as usersRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/route";
import * as userRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/route";
import * as lockRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/lock/route";
import * as unlockRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/unlock/route";
import { checkSessionToken } from "@/lib/sessions";
import { createWebhook, listDeliveries } from "@/lib/webhooks";

type Json = Record<string, unknown>;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function adminTenant() {
  return createTestTenant({ signingAlgorithm: "ES256" });
}

function list(tenant: Tenant, key: string | undefined, query = "") {
  return adminCall(usersRoute.GET, `/t/${tenant.id}/admin/users${query}`, key, {
    params: { tenantId: tenant.id },
  });
}

function create(tenant: Tenant, key: string | undefined, body: unknown) {
  return adminCall(usersRoute.POST, `/t/${tenant.id}/admin/users`, key, {
    method: "POST",
    body,
    params: { tenantId: tenant.id },
  });
}

function one(
  handler: "GET" | "PATCH" | "DELETE",
  tenant: Tenant,
  key: string | undefined,
  userId: string,
  body?: unknown,
) {
  return adminCall(userRoute[handler], `/t/${tenant.id}/admin/users/${userId}`, key, {
    method: handler,
    body,
    params: { tenantId: tenant.id, userId },
  });
}

/** Creates a platform user through the route; returns its wire body. */
async function createUser(tenant: Tenant, key: string, body: Json = {}): Promise<Json> {
  const res = await create(tenant, key, {
    emails: [{ address: `${randomUUID()}@example.com`, is_primary: true, is_verified: true }],
    ...body,
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as Json;
}

async function countUsers(tenant: Tenant): Promise<number> {
  const db = await executor();
  return (await db.select().from(users).where(eq(users.tenantId, tenant.id))).length;
}

describe("POST /t/{tenant_id}/admin/users", () => {
  it("creates a platform user with addresses and a username, answered as Hanko's admin User", async () => {
    const { tenant, keys } = await adminTenant();
    const res = await create(tenant, keys.admin, {
      emails: [
        { address: "Second@Example.com", is_primary: false, is_verified: false },
        { address: "first@example.com", is_primary: true, is_verified: true },
      ],
      username: "Alice_1",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    const id = body.id as string;
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      emails: expect.any(Array),
      username: {
        id,
        username: "alice_1",
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const addresses = body.emails as Json[];
    expect(addresses).toHaveLength(2);
    expect(addresses.find((e) => e.address === "first@example.com")).toEqual({
      id: expect.any(String),
      address: "first@example.com",
      is_verified: true,
      is_primary: true,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(addresses.find((e) => e.address === "second@example.com")).toMatchObject({
      is_verified: false,
      is_primary: false,
    });
    expect(await findUser(tenant.id, id)).toMatchObject({ externalId: null, username: "alice_1" });
    const audit = await listAuditEvents(tenant.id, { limit: 20 });
    expect(audit.items.find((e) => e.type === "user.created")).toMatchObject({
      actor: expect.stringMatching(/^api_key:/),
      details: { userId: id },
    });
  });

  it("takes the given id and created_at; a username alone is enough", async () => {
    const { tenant, keys } = await adminTenant();
    const id = randomUUID();
    const body = await createUser(tenant, keys.admin, {
      id,
      emails: [],
      username: "bob",
      created_at: "2020-01-02T03:04:05.000Z",
    });
    expect(body).toMatchObject({ id, created_at: "2020-01-02T03:04:05.000Z" });
    expect(body.emails).toBeUndefined();
  });

  it("answers 409 for a taken id, address or username, and creates nothing", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const existing = await createUser(tenant, keys.admin, { username: "taken" });
    const address = ((existing.emails as Json[])[0]!.address as string).toUpperCase();
    const foreign = await createUser(other.tenant, other.keys.admin);
    const before = await countUsers(tenant);
    const fresh = () => ({ address: `${randomUUID()}@example.com`, is_primary: true, is_verified: false });
    for (const body of [
      { id: existing.id, emails: [fresh()] },
      { id: foreign.id, emails: [fresh()] },
      { emails: [{ address, is_primary: true, is_verified: true }] },
      { emails: [fresh()], username: "TAKEN" },
    ]) {
      await expectPublicError(await create(tenant, keys.admin, body), 409);
    }
    expect(await countUsers(tenant)).toBe(before);
  });

  it("answers 400 for bad bodies, and creates nothing", async () => {
    const { tenant, keys } = await adminTenant();
    const mail = () => `${randomUUID()}@example.com`;
    const cases: unknown[] = [
      {},
      { emails: [] },
      { emails: [], username: "" },
      { emails: [{ address: mail(), is_primary: false, is_verified: true }] },
      {
        emails: [
          { address: mail(), is_primary: true, is_verified: true },
          { address: mail(), is_primary: true, is_verified: true },
        ],
      },
      {
        emails: [
          { address: "same@example.com", is_primary: true, is_verified: true },
          { address: "SAME@example.com", is_primary: false, is_verified: true },
        ],
      },
      { emails: [{ address: "not-an-address", is_primary: true, is_verified: true }] },
      { emails: [{ is_primary: true, is_verified: true }] },
      { id: "not-a-uuid", username: "carol" },
      { id: "6ba7b810-9dad-11d1-80b4-00c04fd430c8", username: "carol" },
      { username: "no spaces allowed" },
      { username: "carol", created_at: "yesterday" },
      "[]",
    ];
    for (const body of cases) {
      await expectPublicError(await create(tenant, keys.admin, body), 400);
    }
    expect(await countUsers(tenant)).toBe(0);
  });
});

describe("GET /t/{tenant_id}/admin/users", () => {
  it("pages the tenant's platform users, newest first, with X-Total-Count and Link", async () => {
    const { tenant, keys } = await adminTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await createUser(tenant, keys.admin, { created_at: `2024-01-0${i + 1}T00:00:00Z` })).id as string,
      );
    }
    // Neither a Passkey API user nor another tenant's user is listed.
    await upsertExternalUser(tenant.id, { externalId: "ext", username: "ext", displayName: "", icon: null });
    const other = await adminTenant();
    await createUser(other.tenant, other.keys.admin);

    const res = await list(tenant, keys.admin, "?per_page=2&page=2");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("5");
    const base = `/t/${tenant.id}/admin/users`;
    expect(res.headers.get("link")).toBe(
      // Hanko's pagination header: first, last, next, prev, joined by commas.
      [
        `<${base}?per_page=2&page=1>; rel="first"`,
        `<${base}?per_page=2&page=3>; rel="last"`,
        `<${base}?per_page=2&page=3>; rel="next"`,
        `<${base}?per_page=2&page=1>; rel="prev"`,
      ].join(","),
    );
    const page = (await res.json()) as Json[];
    expect(page.map((u) => u.id)).toEqual([ids[2], ids[1]]);
    expect(page[0]).toMatchObject({ emails: [expect.objectContaining({ is_primary: true })] });

    const first = await list(tenant, keys.admin);
    expect(((await first.json()) as Json[]).map((u) => u.id)).toEqual([...ids].reverse());
    expect(first.headers.get("link")).toBe(`<${base}?page=1&per_page=20>; rel="first"`);

    const asc = await list(tenant, keys.admin, "?sort_direction=asc&per_page=3");
    expect(((await asc.json()) as Json[]).map((u) => u.id)).toEqual(ids.slice(0, 3));

    const beyond = await list(tenant, keys.admin, "?page=9");
    expect(await beyond.json()).toEqual([]);
    expect(beyond.headers.get("x-total-count")).toBe("5");
  });

  it("filters by user_id (comma-separated), email and username parts", async () => {
    const { tenant, keys } = await adminTenant();
    const a = await createUser(tenant, keys.admin, {
      emails: [{ address: "anna.smith@example.com", is_primary: true, is_verified: true }],
    });
    const b = await createUser(tenant, keys.admin, { emails: [], username: "bert_smith" });
    const c = await createUser(tenant, keys.admin, {
      emails: [{ address: "carl@example.org", is_primary: true, is_verified: true }],
    });
    const idsOf = async (query: string) => {
      const res = await list(tenant, keys.admin, query);
      expect(res.status).toBe(200);
      return ((await res.json()) as Json[]).map((u) => u.id).sort();
    };
    expect(await idsOf(`?user_id=${a.id},${c.id}`)).toEqual([a.id, c.id].sort());
    expect(await idsOf("?email=SMITH")).toEqual([a.id]);
    expect(await idsOf("?username=smith")).toEqual([b.id]);
    expect(await idsOf("?email=smith&username=smith")).toEqual([a.id, b.id].sort());
    expect(await idsOf("?email=example.org")).toEqual([c.id]);
    expect(await idsOf("?email=%25")).toEqual([]);
    const filtered = await list(tenant, keys.admin, "?email=example");
    expect(filtered.headers.get("x-total-count")).toBe("2");
  });

  it("answers 400 for bad query parameters", async () => {
    const { tenant, keys } = await adminTenant();
    for (const query of [
      "?page=0",
      "?page=x",
      "?per_page=0",
      "?per_page=101",
      "?sort_direction=up",
      "?user_id=nope",
      `?user_id=${randomUUID()},nope`,
    ]) {
      await expectPublicError(await list(tenant, keys.admin, query), 400);
    }
  });
});

/** A user with one of everything the admin User shows or its deletion removes. */
async function fullUser(tenant: Tenant, key: string) {
  const body = await createUser(tenant, key, { username: `full${randomBytes(3).toString("hex")}` });
  const id = body.id as string;
  const db = await executor();
  await db.insert(passwords).values({ tenantId: tenant.id, userId: id, hash: "fixture" });
  await db.insert(otpSecrets).values({ tenantId: tenant.id, userId: id, secret: "fixture" });
  const credentialId = randomBytes(16).toString("base64url");
  await saveCredential({
    tenantId: tenant.id,
    id: credentialId,
    userId: id,
    name: "fixture passkey",
    publicKey: "AQ",
    aaguid: "00000000-0000-0000-0000-000000000000",
    attestationType: "none",
    backupEligible: false,
    backupState: false,
    userVerified: true,
    isMfa: false,
  });
  await db.insert(uafRegistrations).values({
    tenantId: tenant.id,
    userId: id,
    aaid: "FFFF#0001",
    keyId: randomBytes(8).toString("base64url"),
    publicKey: "AQ",
    publicKeyAlgAndEncoding: 256,
    signatureAlgAndEncoding: 1,
    signCounter: 0,
    regCounter: 0,
    authenticatorVersion: 1,
    attestationType: "basic_surrogate",
    facetId: "https://localhost",
    upv: "1.1",
    appId: "https://localhost",
    name: "fixture",
  });
  const user = (await findUser(tenant.id, id))!;
  await sessionFor(tenant, user);
  await patchMetadata(
    tenant,
    id,
    { public_metadata: { role: "admin" }, private_metadata: { n: 1 } },
    TEST_CONTEXT,
  );
  return { id, credentialId, user };
}

describe("GET /t/{tenant_id}/admin/users/{user_id}", () => {
  it("answers the admin User with credentials, password, otp and metadata", async () => {
    const { tenant, keys } = await adminTenant();
    const { id, credentialId } = await fullUser(tenant, keys.admin);
    const res = await one("GET", tenant, keys.admin, id);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(Object.keys(body).sort()).toEqual(
      [
        "created_at",
        "emails",
        "id",
        "metadata",
        "otp",
        "password",
        "updated_at",
        "username",
        "webauthn_credentials",
      ].sort(),
    );
    expect(body.webauthn_credentials).toEqual([
      expect.objectContaining({ id: credentialId, name: "fixture passkey", mfa_only: false }),
    ]);
    expect(body.password).toEqual({
      id,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(body.otp).toEqual({ id, created_at: expect.stringMatching(ISO) });
    expect(body.metadata).toEqual({ public_metadata: { role: "admin" }, private_metadata: { n: 1 } });
  });

  it("answers 400 for a non-UUID id and 404 for unknown, other tenant's and Passkey API users", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const foreign = await createUser(other.tenant, other.keys.admin);
    const external = await upsertExternalUser(tenant.id, {
      externalId: "ext-1",
      username: "x",
      displayName: "",
      icon: null,
    });
    await expectPublicError(await one("GET", tenant, keys.admin, "nope"), 400);
    for (const id of [randomUUID(), foreign.id as string, external.id]) {
      await expectPublicError(await one("GET", tenant, keys.admin, id), 404);
    }
  });
});

describe("PATCH /t/{tenant_id}/admin/users/{user_id}", () => {
  it("sets and clears the username and profile claims", async () => {
    const { tenant, keys } = await adminTenant();
    const created = await createUser(tenant, keys.admin);
    const id = created.id as string;
    const set = await one("PATCH", tenant, keys.admin, id, {
      username: " NewName ",
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      picture: "https://example.com/ada.png",
    });
    expect(set.status).toBe(200);
    const body = (await set.json()) as Json;
    expect(body).toMatchObject({
      id,
      username: { id, username: "newname" },
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      picture: "https://example.com/ada.png",
    });
    expect(body.emails).toEqual(created.emails);

    const cleared = await one("PATCH", tenant, keys.admin, id, { username: null, name: null, picture: null });
    const after = (await cleared.json()) as Json;
    expect(after).toMatchObject({ given_name: "Ada", family_name: "Lovelace" });
    for (const field of ["username", "name", "picture"]) expect(after[field], field).toBeUndefined();

    const audit = await listAuditEvents(tenant.id, { limit: 50 });
    const updates = audit.items.filter((e) => e.type === "user.updated");
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({ actor: expect.stringMatching(/^api_key:/) });
  });

  it("answers 400 or 409 for bad values and changes nothing", async () => {
    const { tenant, keys } = await adminTenant();
    await createUser(tenant, keys.admin, { username: "holder" });
    const id = (await createUser(tenant, keys.admin, { username: "mine", name: undefined })).id as string;
    await one("PATCH", tenant, keys.admin, id, { name: "Kept" });
    const before = await findUser(tenant.id, id);
    for (const body of [
      { username: "" },
      { username: "   " },
      { username: "with space" },
      { name: "" },
      { given_name: 5 },
      { picture: "ftp://example.com/a.png" },
      { picture: "not a url" },
      { picture: "javascript:alert(1)" },
    ]) {
      await expectPublicError(await one("PATCH", tenant, keys.admin, id, body), 400);
    }
    await expectPublicError(
      await one("PATCH", tenant, keys.admin, id, { username: "HOLDER", name: "Changed" }),
      409,
    );
    expect(await findUser(tenant.id, id)).toEqual(before);
  });

  it("answers 404 for another tenant's user and 400 for a non-UUID id", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const foreign = await createUser(other.tenant, other.keys.admin);
    await expectPublicError(await one("PATCH", tenant, keys.admin, foreign.id as string, { name: "X" }), 404);
    await expectPublicError(await one("PATCH", tenant, keys.admin, "nope", { name: "X" }), 400);
    expect((await findUser(other.tenant.id, foreign.id as string))?.name).toBeNull();
  });
});

describe("DELETE /t/{tenant_id}/admin/users/{user_id}", () => {
  async function rowsOf(tenant: Tenant, userId: string) {
    const db = await executor();
    const mine = { tenant: tenant.id, user: userId };
    const count = async (table: typeof emails | typeof sessions | typeof webauthnCredentials) =>
      (
        await db
          .select()
          .from(table)
          .where(and(eq(table.tenantId, mine.tenant), eq(table.userId, mine.user)))
      ).length;
    return {
      user: (await db.select().from(users).where(eq(users.id, userId))).length,
      emails: await count(emails),
      sessions: await count(sessions),
      credentials: await count(webauthnCredentials),
      passwords: (await db.select().from(passwords).where(eq(passwords.userId, userId))).length,
      otp: (await db.select().from(otpSecrets).where(eq(otpSecrets.userId, userId))).length,
      uaf: (await db.select().from(uafRegistrations).where(eq(uafRegistrations.userId, userId))).length,
      passcodes: (await db.select().from(passcodes).where(eq(passcodes.userId, userId))).length,
      metadata: (await db.select().from(userMetadata).where(eq(userMetadata.userId, userId))).length,
    };
  }

  it("removes the user and every kind of its data, and leaves another user's", async () => {
    const { tenant, keys } = await adminTenant();
    const doomed = await fullUser(tenant, keys.admin);
    const kept = await fullUser(tenant, keys.admin);
    const db = await executor();
    for (const user of [doomed, kept]) {
      await db.insert(passcodes).values({
        tenantId: tenant.id,
        userId: user.id,
        address: "x@example.com",
        purpose: "login",
        codeHash: "fixture",
        expiresAt: new Date(Date.now() + 60_000),
      });
    }
    const full = {
      user: 1,
      emails: 1,
      sessions: 1,
      credentials: 1,
      passwords: 1,
      otp: 1,
      uaf: 1,
      passcodes: 1,
      metadata: 1,
    };
    expect(await rowsOf(tenant, doomed.id)).toEqual(full);

    const res = await one("DELETE", tenant, keys.admin, doomed.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    const gone = Object.fromEntries(Object.keys(full).map((k) => [k, 0]));
    expect(await rowsOf(tenant, doomed.id)).toEqual(gone);
    expect(await rowsOf(tenant, kept.id)).toEqual(full);

    const audit = await listAuditEvents(tenant.id, { limit: 50 });
    expect(audit.items.find((e) => e.type === "user.deleted")).toMatchObject({
      actor: expect.stringMatching(/^api_key:/),
      details: { userId: doomed.id },
    });
    await expectPublicError(await one("DELETE", tenant, keys.admin, doomed.id), 404);
  });

  it("answers 404 for another tenant's user and 400 for a non-UUID id", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const foreign = await createUser(other.tenant, other.keys.admin);
    await expectPublicError(await one("DELETE", tenant, keys.admin, foreign.id as string), 404);
    await expectPublicError(await one("DELETE", tenant, keys.admin, "nope"), 400);
    expect(await findUser(other.tenant.id, foreign.id as string)).toBeDefined();
  });
});

describe("POST /t/{tenant_id}/admin/users/{user_id}/lock and /unlock (issue 29)", () => {
  it("locks (ending the sessions, refusing sign-ins) and unlocks, audited and sent as user.update", async () => {
    const { tenant, keys } = await adminTenant();
    const created = await createUser(tenant, keys.admin);
    const id = created.id as string;
    const webhook = await createWebhook(
      tenant.id,
      { callback: "https://93.184.215.14/hooks", events: ["user.update"] },
      TEST_CONTEXT,
    );
    const user = (await findUser(tenant.id, id))!;
    const token = await sessionFor(tenant, user);

    const locked = await lock("lock", tenant, keys.admin, id);
    expect(locked.status).toBe(200);
    // Hanko's User, unchanged in shape.
    expect((await locked.json()) as Json).toEqual({ ...created, updated_at: expect.stringMatching(ISO) });
    expect((await findUser(tenant.id, id))!.lockedAt).toBeInstanceOf(Date);
    expect(await checkSessionToken(tenant, token)).toBeUndefined();
    await expect(sessionFor(tenant, user)).rejects.toMatchObject({ code: "USER_LOCKED" });
    // Again: nothing changes, nothing is recorded.
    expect((await lock("lock", tenant, keys.admin, id)).status).toBe(200);

    const unlocked = await lock("unlock", tenant, keys.admin, id);
    expect(unlocked.status).toBe(200);
    expect((await findUser(tenant.id, id))!.lockedAt).toBeNull();
    expect(await checkSessionToken(tenant, await sessionFor(tenant, user))).toBeDefined();

    const audit = await listAuditEvents(tenant.id, { limit: 50 });
    const events = audit.items.filter((e) => e.type === "user.locked" || e.type === "user.unlocked");
    expect(events.map((e) => e.type).sort()).toEqual(["user.locked", "user.unlocked"]);
    for (const event of events) {
      expect(event).toMatchObject({ actor: expect.stringMatching(/^api_key:/), details: { userId: id } });
    }
    const { deliveries } = await listDeliveries(tenant.id, webhook.webhook.id, { page: 1, perPage: 10 });
    expect(deliveries.map(({ event }) => event.event)).toEqual(["user.update", "user.update"]);
  });

  it("answers 400 for a non-UUID id, 404 for unknown, other tenant's and Passkey API users, 401 without the key", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const foreign = await createUser(other.tenant, other.keys.admin);
    const mine = await createUser(tenant, keys.admin);
    const external = await upsertExternalUser(tenant.id, {
      externalId: "ext-lock",
      username: "x",
      displayName: "",
      icon: null,
    });
    for (const which of ["lock", "unlock"] as const) {
      await expectPublicError(await lock(which, tenant, keys.admin, "nope"), 400);
      await expectPublicError(await lock(which, tenant, keys.admin, "1' or '1'='1"), 400);
      for (const id of [randomUUID(), foreign.id as string, external.id]) {
        await expectPublicError(await lock(which, tenant, keys.admin, id), 404);
      }
      for (const key of [undefined, keys.passkey, keys.authenticator, other.keys.admin]) {
        await expectPublicError(await lock(which, tenant, key, mine.id as string), 401);
      }
    }
    expect((await findUser(other.tenant.id, foreign.id as string))!.lockedAt).toBeNull();
    expect((await findUser(tenant.id, mine.id as string))!.lockedAt).toBeNull();
    expect((await findUser(tenant.id, external.id))!.lockedAt).toBeNull();
  });
});

describe("admin users routes: authentication", () => {
  it("answer 401 without a key, with a passkey or authenticator key, or another tenant's admin key", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const id = (await createUser(tenant, keys.admin)).id as string;
    const before = await countUsers(tenant);
    for (const key of [undefined, keys.passkey, keys.authenticator, other.keys.admin]) {
      await expectPublicError(await list(tenant, key), 401, "Unauthorized");
      await expectPublicError(await create(tenant, key, { username: "intruder" }), 401);
      await expectPublicError(await one("GET", tenant, key, id), 401);
      await expectPublicError(await one("PATCH", tenant, key, id, { name: "Intruder" }), 401);
      await expectPublicError(await one("DELETE", tenant, key, id), 401);
    }
    expect(await countUsers(tenant)).toBe(before);
    expect((await findUser(tenant.id, id))?.name).toBeNull();
  });
});
