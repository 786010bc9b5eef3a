import * as registrationsRename from "@/app/(authenticator-api)/mgmt/v1/registrations/rename/[deviceId]/route";
import * as registrationsUser from "@/app/(authenticator-api)/mgmt/v1/registrations/[userId]/route";
import * as registrationsDevice from "@/app/(authenticator-api)/mgmt/v1/registrations/[userId]/[deviceId]/route";
import * as appRequest from "@/app/(authenticator-api)/v1/uaf/app/requests/[id]/route";
import * as link from "@/app/(authenticator-api)/v1/uaf/requests/[id]/link/route";
import * as qrcode from "@/app/(authenticator-api)/v1/uaf/requests/[id]/qrcode/route";
import * as request from "@/app/(authenticator-api)/v1/uaf/requests/[id]/route";
import * as requests from "@/app/(authenticator-api)/v1/uaf/requests/route";
import { asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { SoftwareUafAuthenticator, type CreateSoftwareAuthenticatorOptions } from "@/lib/ceremonies/uaf";
import { executor } from "@/lib/db";
import { uafRegistrations, uafRequests, users } from "@/lib/db/schema";
import type { ProvisionedTenant } from "@/lib/accounts";
import type { CreateTenantInput } from "@/lib/settings/schemas";
import { call } from "./http";
import { matchTemplate } from "./routes";
import { createTestTenant } from "./tenants";

type Handler = Parameters<typeof call>[0];
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "DELETE", Handler>>;

/** The Authenticator API's route files by path template, static segments first (as Next.js routes). */
const ROUTES: [string, RouteModule][] = [
  ["/v1/uaf/requests", requests],
  ["/v1/uaf/requests/{id}/qrcode", qrcode],
  ["/v1/uaf/requests/{id}/link", link],
  ["/v1/uaf/requests/{id}", request],
  ["/v1/uaf/app/requests/{id}", appRequest],
  ["/mgmt/v1/registrations/rename/{deviceId}", registrationsRename],
  ["/mgmt/v1/registrations/{userId}/{deviceId}", registrationsDevice],
  ["/mgmt/v1/registrations/{userId}", registrationsUser],
];

export interface AuthenticatorCall {
  body?: unknown;
  /** Sent as `Authorization: secret <key>` unless `scheme` says otherwise. */
  apiKey?: string;
  scheme?: string;
  headers?: Record<string, string>;
}

/** Calls the real Authenticator API route handlers in-process, routed as Next.js would (query kept). */
export async function authenticatorRequest(
  method: keyof RouteModule,
  path: string,
  options: AuthenticatorCall = {},
): Promise<Response> {
  const [pathname = ""] = path.split("?");
  for (const [template, module] of ROUTES) {
    const params = matchTemplate(template, pathname);
    if (!params) continue;
    const handler = module[method];
    if (!handler) throw new Error(`${template} has no ${method}`);
    const auth: Record<string, string> = options.apiKey
      ? { authorization: `${options.scheme ?? "secret"} ${options.apiKey}` }
      : {};
    return call(handler, path, {
      method,
      body: options.body,
      params,
      headers: { ...auth, ...options.headers },
    });
  }
  throw new Error(`no Authenticator API route for ${method} ${pathname}`);
}

// ---------------------------------------------------------------------------------------------------
// Shared pieces of the Authenticator API suites (tests/authenticator-api/)

/** The FacetID the software authenticator claims: the test tenant's web origin. */
export const UAF_FACET_ID = "http://localhost:3000";

type Method = keyof RouteModule;

/** The Request resource as the routes answer it (loosely typed: the tests check the fields they need). */
export interface RequestBody {
  id: string;
  operation: "REG" | "AUTH" | "DEREG";
  status: "PENDING" | "OK" | "FAILED" | "INVALIDATED";
  username: string;
  userId: string;
  createdAt: string;
  validUntil: string;
  relyingParty: { id: string; name: string; appId: string; icon: string };
  request: string;
  deviceID: string;
  transaction?: string;
  device?: { deviceId: string; keyName: string };
  isSecondFactorOnly?: boolean;
  error?: { code: number; reason: string };
  links: { rel: string; method: string; href: string }[];
}

export interface UafTestTenant {
  tenant: ProvisionedTenant["tenant"];
  keys: ProvisionedTenant["keys"];
  /** The software authenticator (a phone with the authenticator app). */
  phone: SoftwareUafAuthenticator;
  /** A call with the tenant's authenticator key. */
  api: (method: Method, path: string, body?: unknown, options?: AuthenticatorCall) => Promise<Response>;
}

/** A fresh tenant that accepts the software authenticator (unless `uaf` says otherwise), and a phone. */
export async function setupUafTenant(
  overrides: Partial<CreateTenantInput> = {},
  phoneOptions: Partial<CreateSoftwareAuthenticatorOptions> = {},
): Promise<UafTestTenant> {
  const { tenant, keys } = await createTestTenant({
    // The tenant's token signing key plays no part here; an EC key is ten times faster to make than RSA.
    signingAlgorithm: "ES256",
    ...overrides,
    uaf: { allowTestAuthenticators: true, ...overrides.uaf },
  });
  const phone = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID, ...phoneOptions });
  const api: UafTestTenant["api"] = (method, path, body, options = {}) =>
    authenticatorRequest(method, path, { apiKey: keys.authenticator, body, ...options });
  return { tenant, keys, phone, api };
}

/** Reads a JSON answer after checking its status (the body is in the failure message). */
export async function jsonOf<T = RequestBody>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return JSON.parse(text) as T;
}

/** POST /v1/uaf/requests, expecting 200. */
export async function createUafRequest(
  t: UafTestTenant,
  body: Record<string, unknown>,
): Promise<RequestBody> {
  return jsonOf(await t.api("POST", "/v1/uaf/requests", body));
}

/** PUT /v1/uaf/requests/{id} with the relying party's key, expecting 200. */
export async function validateUafRequest(
  t: UafTestTenant,
  id: string,
  uafResponse: string,
  deviceKeyInfo?: Record<string, unknown>,
): Promise<RequestBody> {
  return jsonOf(
    await t.api("PUT", `/v1/uaf/requests/${id}`, {
      uafResponse,
      ...(deviceKeyInfo ? { deviceKeyInfo } : {}),
    }),
  );
}

/** Registers `phone` (default: the tenant's) for the user through the routes; returns the device id. */
export async function registerDevice(
  t: UafTestTenant,
  userId: string,
  options: { phone?: SoftwareUafAuthenticator; keyName?: string } = {},
): Promise<string> {
  const reg = await createUafRequest(t, { operation: "REG", userId });
  const done = await validateUafRequest(
    t,
    reg.id,
    (options.phone ?? t.phone).register(reg.request),
    options.keyName ? { keyName: options.keyName } : undefined,
  );
  expect(done, JSON.stringify(done.error)).toMatchObject({ status: "OK" });
  return done.deviceID;
}

/**
 * Asserts an Authenticator API error: the status, `{code, message}` (`{code, messsage}` on 404) with
 * `code` equal to the status, WWW-Authenticate on 401, and optionally what the message says.
 */
export async function expectAuthenticatorError(
  res: Response,
  status: number,
  message?: string | RegExp,
): Promise<{ code: number; message?: string; messsage?: string }> {
  const body = await jsonOf<{ code: number; message?: string; messsage?: string }>(res, status);
  const field = status === 404 ? "messsage" : "message";
  expect(Object.keys(body).sort()).toEqual(["code", field].sort());
  expect(body.code).toBe(status);
  expect(typeof body[field]).toBe("string");
  if (status === 401) expect(res.headers.get("www-authenticate")).toMatch(/Secret realm=/);
  if (message !== undefined) {
    if (typeof message === "string") expect(body[field]).toContain(message);
    else expect(body[field]).toMatch(message);
  }
  return body;
}

/** Everything the Authenticator API stores for a tenant, to show that a refused call changed nothing. */
export async function uafState(tenantId: string) {
  const db = await executor();
  return {
    users: await db.select().from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.id)),
    requests: await db
      .select()
      .from(uafRequests)
      .where(eq(uafRequests.tenantId, tenantId))
      .orderBy(asc(uafRequests.id)),
    registrations: await storedRegistrations(tenantId),
  };
}

/** The tenant's registrations (devices) with their counters, straight from the database. */
export async function storedRegistrations(tenantId: string) {
  const db = await executor();
  return db
    .select()
    .from(uafRegistrations)
    .where(eq(uafRegistrations.tenantId, tenantId))
    .orderBy(asc(uafRegistrations.id));
}

/** One request row, straight from the database. */
export async function storedRequest(requestId: string) {
  const db = await executor();
  const [row] = await db.select().from(uafRequests).where(eq(uafRequests.id, requestId));
  return row;
}

/** Moves a request `seconds` into the past (createdAt and validUntil), as if that time had passed. */
export async function backdateRequest(requestId: string, seconds: number): Promise<void> {
  const shift = sql.raw(`interval '${Math.trunc(seconds)} seconds'`);
  const db = await executor();
  await db
    .update(uafRequests)
    .set({
      createdAt: sql`${uafRequests.createdAt} - ${shift}`,
      validUntil: sql`${uafRequests.validUntil} - ${shift}`,
    })
    .where(eq(uafRequests.id, requestId));
}

/** The tenant's audit events (newest first), optionally of one type. */
export async function auditEventsOf(tenantId: string, type?: string) {
  const { items } = await listAuditEvents(tenantId, { limit: 200, ...(type ? { type } : {}) });
  return items;
}

/** GET /v1/uaf/requests/{id}/link: a fresh out-of-band token and the app path that carries it. */
export async function appLink(t: UafTestTenant, requestId: string): Promise<{ path: string; token: string }> {
  const { href } = await jsonOf<{ href: string }>(await t.api("GET", `/v1/uaf/requests/${requestId}/link`));
  const url = new URL(href);
  return { path: `${url.pathname}${url.search}`, token: url.searchParams.get("token")! };
}

/** Edits the first entry of a UAF response message (the JSON text of an array). */
export function editResponse(uafResponse: string, edit: (entry: Record<string, unknown>) => void): string {
  const entries = JSON.parse(uafResponse) as Record<string, unknown>[];
  edit(entries[0]!);
  return JSON.stringify(entries);
}
