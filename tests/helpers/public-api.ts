import { randomUUID } from "node:crypto";
import { beforeAll, expect } from "vitest";
import * as validateRoute from "@/app/(public-api)/t/[tenantId]/sessions/validate/route";
import type { AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails } from "@/lib/db/schema";
import { configureMail } from "@/lib/mail";
import { issueSession, type AuthMethod } from "@/lib/sessions";
import { updateTenant, type Tenant } from "@/lib/tenants";
import type { UpdateTenantInput } from "@/lib/settings/schemas";
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

/** A tenant whose passcode rate limit stays out of the way (tests/public-api/rate-limit.test.ts tests it). */
export function createPasscodeTenant(settings: UpdateTenantInput = {}): Promise<Tenant> {
  return createPublicTenant({
    ...settings,
    platform: { ...settings.platform, rateLimits: { passcode: { points: 1000, durationSeconds: 60 } } },
  });
}

/** Sends the calling file's mail to the dev outbox, whatever SMTP_URL the environment has (tests read codes there). */
export function useDevOutbox(): void {
  beforeAll(() => {
    configureMail({ smtpUrl: undefined, from: "Sesame <no-reply@localhost>" });
  });
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

/**
 * Expects a public API error: the status, a body of exactly `{code, message}` with `code` the status,
 * the message when given, and none of `absentHeaders` (e.g. no session issued). Returns the body.
 */
export async function expectPublicError(
  res: Response,
  status: number,
  message?: string | RegExp,
  absentHeaders: string[] = [],
): Promise<{ code: number; message: string }> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text) as { code: number; message: string };
  expect(Object.keys(body).sort()).toEqual(["code", "message"]);
  expect(body.code).toBe(status);
  if (message !== undefined) expect(body.message).toMatch(message);
  for (const name of absentHeaders) expect(res.headers.get(name), name).toBeNull();
  return body;
}

/** The session cookie a response set (the default cookie name), and what GET /sessions/validate says of it. */
export async function validateSessionCookie(
  tenant: Tenant,
  res: Response,
): Promise<{ cookie: string | undefined; session: unknown }> {
  const cookie = /^hanko=([^;]+);/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const session: unknown = await (
    await publicCall(validateRoute.GET, tenant, "GET", "/sessions/validate", { cookie: cookie! })
  ).json();
  return { cookie, session };
}
