import { randomUUID } from "node:crypto";
import type { AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails } from "@/lib/db/schema";
import { issueSession, type AuthMethod } from "@/lib/sessions";
import { updateTenant, type Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/tenants/schemas";
import { upsertExternalUser, type User } from "@/lib/users";
import { call } from "./http";
import { createTestTenant } from "./tenants";

export const ORIGIN = "http://localhost:3000";
export const TEST_CONTEXT: AuditContext = {
  requestId: "test",
  ip: "127.0.0.1",
  userAgent: "vitest",
  actor: null,
};

/** A tenant for public API tests: ES256 keys (fast), the test origin, optional platform settings. */
export async function createPublicTenant(settings: UpdateTenantInput = {}): Promise<Tenant> {
  const { tenant } = await createTestTenant({ signingAlgorithm: "ES256" });
  return Object.keys(settings).length > 0 ? updateTenant(tenant.id, settings) : tenant;
}

/** A user with a primary, verified email (created directly: sign-up has its own tests). */
export async function createUserWithEmail(
  tenant: Tenant,
  address = `${randomUUID()}@example.com`,
): Promise<User> {
  const user = await upsertExternalUser(tenant.id, {
    externalId: `ext-${randomUUID()}`,
    username: "",
    displayName: "",
    icon: null,
  });
  const db = await executor();
  await db
    .insert(emails)
    .values({ tenantId: tenant.id, userId: user.id, address, verified: true, isPrimary: true });
  return user;
}

/** A session JWT for the user, as a login would issue it. */
export async function sessionFor(
  tenant: Tenant,
  user: User,
  amr: AuthMethod[] = ["passkey"],
): Promise<string> {
  return (await issueSession(tenant, user, amr, TEST_CONTEXT)).token;
}

type Handler = Parameters<typeof call>[0];

export interface PublicCall {
  body?: unknown;
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  /** Sent as the tenant's session cookie. */
  cookie?: string;
  origin?: string;
  headers?: Record<string, string>;
}

/** Calls a public route handler for `/t/{tenantId}{path}`. */
export function publicCall(
  handler: Handler | undefined,
  tenant: Tenant,
  method: string,
  path: string,
  options: PublicCall = {},
  params: Record<string, string> = {},
): Promise<Response> {
  if (!handler) throw new Error(`no ${method} handler for ${path}`);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = `${tenant.platform.session.cookie.name}=${options.cookie}`;
  if (options.origin) headers.origin = options.origin;
  return call(handler, `/t/${tenant.id}${path}`, {
    method,
    body: options.body,
    headers,
    params: { tenantId: tenant.id, ...params },
  });
}
