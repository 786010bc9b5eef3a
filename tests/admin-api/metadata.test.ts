import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { readUserMetadata } from "@/lib/metadata";
import type { Tenant } from "@/lib/tenants";
import { upsertExternalUser } from "@/lib/users";
import { createAdminUser } from "@/lib/accounts";
import { adminCall } from "@/tests/helpers/admin-api";
import { TEST_CONTEXT, expectPublicError } from "@/tests/helpers/public-api";
import { createTestTenant } from "@/tests/helpers/tenants";
import * as metadataRoute from "@/app/(admin-api)/t/[tenantId]/admin/users/[userId]/metadata/route";

const adminTenant = () => createTestTenant({ signingAlgorithm: "ES256" });

async function platformUser(tenant: Tenant): Promise<string> {
  const user = await createAdminUser(
    tenant,
    { emails: [], username: `u${randomUUID().slice(0, 8)}` },
    TEST_CONTEXT,
  );
  return user.user.id;
}

function getMetadata(tenant: Tenant, key: string | undefined, userId: string) {
  return adminCall(metadataRoute.GET, `/t/${tenant.id}/admin/users/${userId}/metadata`, key, {
    params: { tenantId: tenant.id, userId },
  });
}

function patch(tenant: Tenant, key: string | undefined, userId: string, body: unknown) {
  return adminCall(metadataRoute.PATCH, `/t/${tenant.id}/admin/users/${userId}/metadata`, key, {
    method: "PATCH",
    body,
    params: { tenantId: tenant.id, userId },
  });
}

async function patched(tenant: Tenant, key: string, userId: string, body: unknown): Promise<unknown> {
  const res = await patch(tenant, key, userId, body);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
}

describe("GET /t/{tenant_id}/admin/users/{user_id}/metadata", () => {
  it("answers 204 without metadata and the three kinds once set", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    const none = await getMetadata(tenant, keys.admin, userId);
    expect(none.status).toBe(204);
    expect(await none.text()).toBe("");

    await patched(tenant, keys.admin, userId, {
      public_metadata: { role: "editor" },
      private_metadata: { stripe: "cus_1" },
      unsafe_metadata: { theme: "dark" },
    });
    const res = await getMetadata(tenant, keys.admin, userId);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      public_metadata: { role: "editor" },
      private_metadata: { stripe: "cus_1" },
      unsafe_metadata: { theme: "dark" },
    });
  });

  it("answers 400 for a non-UUID id, 404 for unknown, other tenant's and Passkey API users", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const foreign = await platformUser(other.tenant);
    const external = await upsertExternalUser(tenant.id, {
      externalId: "e",
      username: "e",
      displayName: "",
      icon: null,
    });
    await expectPublicError(await getMetadata(tenant, keys.admin, "nope"), 400);
    for (const id of [randomUUID(), foreign, external.id]) {
      await expectPublicError(await getMetadata(tenant, keys.admin, id), 404);
      await expectPublicError(await patch(tenant, keys.admin, id, { public_metadata: { a: 1 } }), 404);
    }
    expect(await readUserMetadata(other.tenant.id, foreign)).toEqual({});
    expect(await readUserMetadata(tenant.id, external.id)).toEqual({});
  });
});

describe("PATCH /t/{tenant_id}/admin/users/{user_id}/metadata", () => {
  it("creates metadata, merges per RFC 7396, removes kinds set to null and audits", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    expect(
      await patched(tenant, keys.admin, userId, {
        public_metadata: { profile: { color: "red", size: 1 }, tags: ["a", "b"] },
        private_metadata: { plan: "pro" },
      }),
    ).toEqual({
      public_metadata: { profile: { color: "red", size: 1 }, tags: ["a", "b"] },
      private_metadata: { plan: "pro" },
    });
    expect(
      await patched(tenant, keys.admin, userId, {
        public_metadata: { profile: { size: null, shape: "round" }, tags: ["c"] },
        private_metadata: null,
        unsafe_metadata: { note: "hi" },
        unknown_metadata: { ignored: true },
      }),
    ).toEqual({
      public_metadata: { profile: { color: "red", shape: "round" }, tags: ["c"] },
      unsafe_metadata: { note: "hi" },
    });
    // `{}` changes nothing; an empty object left by a patch removes the kind.
    expect(
      await patched(tenant, keys.admin, userId, { public_metadata: {}, unsafe_metadata: { note: null } }),
    ).toEqual({
      public_metadata: { profile: { color: "red", shape: "round" }, tags: ["c"] },
    });
    expect(await patched(tenant, keys.admin, userId, {})).toEqual({
      public_metadata: { profile: { color: "red", shape: "round" }, tags: ["c"] },
    });

    const audit = await listAuditEvents(tenant.id, { type: "user.metadata.updated", limit: 10 });
    expect(audit.items).toHaveLength(4);
    expect(audit.items[0]).toMatchObject({
      actor: expect.stringMatching(/^api_key:/),
      details: { userId, source: "admin", changed: [] },
    });
    expect(audit.items[2]).toMatchObject({
      details: { changed: ["public_metadata", "private_metadata", "unsafe_metadata"] },
    });
  });

  it("clears every kind with a null body (204)", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    await patched(tenant, keys.admin, userId, { public_metadata: { a: 1 }, private_metadata: { b: 2 } });
    const res = await patch(tenant, keys.admin, userId, "null");
    expect(res.status).toBe(204);
    expect((await getMetadata(tenant, keys.admin, userId)).status).toBe(204);
    expect(await readUserMetadata(tenant.id, userId)).toEqual({});
  });

  it("answers 400 for bodies that are not null or an object of objects, and over 3000 characters", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    const kept = { public_metadata: { a: 1 }, unsafe_metadata: { b: "x".repeat(2900) } };
    await patched(tenant, keys.admin, userId, kept);
    const bodies: unknown[] = [
      '"a string"',
      "[]",
      "[1]",
      "42",
      "true",
      "{not json",
      { public_metadata: "x" },
      { private_metadata: [1, 2] },
      { unsafe_metadata: 5 },
      { public_metadata: { big: "y".repeat(3000) } },
      // The merged result counts: 2900 + 100 more characters is over the limit.
      { unsafe_metadata: { c: "z".repeat(100) } },
    ];
    for (const body of bodies) {
      await expectPublicError(await patch(tenant, keys.admin, userId, body), 400);
    }
    const empty = await adminCall(
      metadataRoute.PATCH,
      `/t/${tenant.id}/admin/users/${userId}/metadata`,
      keys.admin,
      {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        params: { tenantId: tenant.id, userId },
      },
    );
    await expectPublicError(empty, 400);
    expect(await readUserMetadata(tenant.id, userId)).toEqual(kept);
    const failed = await listAuditEvents(tenant.id, { type: "user.metadata.update.failed", limit: 10 });
    expect(failed.items).toHaveLength(2);
  });

  it("answers 400 for metadata nested deeper than 32 levels (a 500 from recursion otherwise), changing nothing", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    await patched(tenant, keys.admin, userId, { public_metadata: { kept: true } });
    const nested = (depth: number) => {
      let value: Record<string, unknown> = { leaf: 1 };
      for (let i = 1; i < depth; i += 1) value = { a: value };
      return value;
    };
    expect((await patch(tenant, keys.admin, userId, { public_metadata: nested(32) })).status).toBe(200);
    await expectPublicError(await patch(tenant, keys.admin, userId, { public_metadata: nested(33) }), 400);
    // Deeper than JSON.stringify itself can go: sent as text (60 kB, under the 64 KiB body limit).
    const deep = `{"public_metadata":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`;
    await expectPublicError(await patch(tenant, keys.admin, userId, deep), 400);
    expect(await readUserMetadata(tenant.id, userId)).toEqual({
      public_metadata: { ...nested(32), kept: true },
    });
  });

  it("accepts exactly 3000 characters per kind", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    // {"k":"…"} is 8 characters around the value.
    const value = { k: "é".repeat(2992) };
    expect(JSON.stringify(value)).toHaveLength(3000);
    expect(await patched(tenant, keys.admin, userId, { private_metadata: value })).toEqual({
      private_metadata: value,
    });
    await expectPublicError(
      await patch(tenant, keys.admin, userId, { private_metadata: { k: "é".repeat(2993) } }),
      400,
    );
  });

  it("keeps every concurrent patch (read-modify-write under the user lock)", async () => {
    const { tenant, keys } = await adminTenant();
    const userId = await platformUser(tenant);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        patch(tenant, keys.admin, userId, { public_metadata: { [`k${i}`]: i } }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(8).fill(200));
    const { public_metadata } = await readUserMetadata(tenant.id, userId);
    expect(Object.keys(public_metadata ?? {}).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `k${i}`).sort(),
    );
  });

  it("answers 401 without the tenant's admin key and changes nothing", async () => {
    const { tenant, keys } = await adminTenant();
    const other = await adminTenant();
    const userId = await platformUser(tenant);
    for (const key of [undefined, keys.passkey, keys.authenticator, other.keys.admin]) {
      await expectPublicError(await getMetadata(tenant, key, userId), 401, "Unauthorized");
      await expectPublicError(await patch(tenant, key, userId, { public_metadata: { a: 1 } }), 401);
    }
    expect(await readUserMetadata(tenant.id, userId)).toEqual({});
  });
});
