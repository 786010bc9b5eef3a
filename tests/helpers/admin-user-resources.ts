import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, type AuditLogRow } from "@/lib/db/schema";
import { updateTenant, type Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
import { addUser, type User } from "@/lib/users";
import { adminCall } from "./admin-api";
import { createTestTenant } from "./tenants";

type Handler = Parameters<typeof adminCall>[0];

export interface AdminFixture {
  tenant: Tenant;
  /** The tenant's admin and passkey keys. */
  admin: string;
  passkey: string;
  /** A platform user (no external id: the admin API's kind) with a primary, verified address. */
  user: User;
}

/**
 * A platform user (no external id, as sign-up and `POST /admin/users` create them) with a primary,
 * verified address: the admin API answers 404 for Passkey API users (`createUserWithEmail` makes those).
 */
export async function platformUserWithEmail(
  tenant: Tenant,
  address = `${randomUUID()}@example.com`,
): Promise<User> {
  const user = await addUser(tenant.id);
  const db = await executor();
  await db
    .insert(emails)
    .values({ tenantId: tenant.id, userId: user.id, address, verified: true, isPrimary: true });
  return user;
}

/** A tenant (ES256, optional platform settings) with its keys and one user. */
export async function adminFixture(settings: UpdateTenantInput = {}): Promise<AdminFixture> {
  const { tenant: created, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
  const tenant = Object.keys(settings).length > 0 ? await updateTenant(created.id, settings) : created;
  const user = await platformUserWithEmail(tenant);
  return { tenant, admin: keys.admin, passkey: keys.passkey, user };
}

export interface AdminRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  body?: unknown;
}

/**
 * Expects 401 `{code: 401, message: "Unauthorized"}` without a key, with the tenant's passkey key and
 * with another tenant's admin key.
 */
export async function expectAdminAuth(handler: Handler, fx: AdminFixture, request: AdminRequest) {
  const other = await createTestTenant({ signingAlgorithm: "ES256" });
  for (const key of [undefined, fx.passkey, other.keys.admin]) {
    const res = await adminCall(handler, request.path, key, {
      method: request.method,
      params: request.params,
      body: request.body,
    });
    expect(res.status, `key ${key?.slice(0, 6)}`).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
  }
}

/** Expects a platform error: the status and a body of exactly `{code, message}`. */
export async function expectAdminError(
  res: Response,
  status: number,
): Promise<{ code: number; message: string }> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as { code: number; message: string };
  expect(Object.keys(body).sort()).toEqual(["code", "message"]);
  expect(body.code).toBe(status);
  return body;
}

/** The tenant's audit events of one type, newest first. */
export async function auditEvents(tenantId: string, type: string): Promise<AuditLogRow[]> {
  return (await listAuditEvents(tenantId, { limit: 50, type })).items;
}
