import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import * as loginRoute from "@/app/(flow-api)/t/[tenantId]/login/route";
import * as profileRoute from "@/app/(flow-api)/t/[tenantId]/profile/route";
import * as registrationRoute from "@/app/(flow-api)/t/[tenantId]/registration/route";
import * as tokenExchangeRoute from "@/app/(flow-api)/t/[tenantId]/token_exchange/route";
import { executor } from "@/lib/db";
import { flows, type FlowName, type FlowRow } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import type { Tenant } from "@/lib/tenants";
import { call } from "./http";
import { ORIGIN } from "./public-api";

export const FLOW_ROUTES = {
  login: loginRoute,
  registration: registrationRoute,
  profile: profileRoute,
  token_exchange: tokenExchangeRoute,
} as const;

export interface FlowCallOptions {
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  /** Sent as the tenant's session cookie. */
  cookie?: string;
  /** A `name=value` binding cookie (a third-party or SAML start's) sent beside it. */
  binding?: string;
  headers?: Record<string, string>;
}

export interface FlowCall {
  res: Response;
  body: FlowResponse;
}

function headersOf(tenant: Tenant, options: FlowCallOptions): Record<string, string> {
  const headers: Record<string, string> = { origin: ORIGIN, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const cookies = [
    ...(options.cookie ? [`${tenant.platform.session.cookie.name}=${options.cookie}`] : []),
    ...(options.binding ? [options.binding] : []),
  ];
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  return headers;
}

async function parsed(res: Response): Promise<FlowCall> {
  const text = await res.text();
  const body = JSON.parse(text) as FlowResponse;
  expect(body.status, text).toBe(res.status);
  return { res, body };
}

/** `POST {tenant_url}/{flow}` (no body, as the elements send it): the flow's first state. */
export async function startFlow(
  tenant: Tenant,
  name: FlowName,
  options: FlowCallOptions = {},
): Promise<FlowCall> {
  const res = await call(FLOW_ROUTES[name].POST, `/t/${tenant.id}/${name}`, {
    method: "POST",
    headers: headersOf(tenant, options),
    params: { tenantId: tenant.id },
  });
  return parsed(res);
}

/** Posts to an href as the elements do (`{tenant_url}` + href) with an explicit body. */
export async function postHref(
  tenant: Tenant,
  href: string,
  body: unknown,
  options: FlowCallOptions = {},
): Promise<FlowCall> {
  const name = /^\/(\w+)\?/.exec(href)?.[1] as FlowName | undefined;
  if (!name || !(name in FLOW_ROUTES)) throw new Error(`unexpected href ${href}`);
  const res = await call(FLOW_ROUTES[name].POST, `/t/${tenant.id}${href}`, {
    method: "POST",
    body,
    headers: headersOf(tenant, options),
    params: { tenantId: tenant.id },
  });
  return parsed(res);
}

/**
 * Runs an action offered by `state` with its href and CSRF token, the inputs' default values overlaid
 * with `input` (as the SDK builds `input_data`).
 */
export async function act(
  tenant: Tenant,
  state: FlowResponse,
  action: string,
  input: Record<string, unknown> = {},
  options: FlowCallOptions = {},
): Promise<FlowCall> {
  const offered = state.actions[action];
  expect(
    offered,
    `${action} offered in ${state.name}: ${Object.keys(state.actions).join(", ")}`,
  ).toBeDefined();
  const defaults = Object.fromEntries(
    Object.values(offered!.inputs)
      .filter((spec) => spec.value !== undefined)
      .map((spec) => [spec.name, spec.value]),
  );
  return postHref(
    tenant,
    offered!.href,
    { input_data: { ...defaults, ...input }, csrf_token: state.csrf_token },
    options,
  );
}

/** The flow id in a state's hrefs. */
export function flowIdOf(state: FlowResponse): string {
  const href = Object.values(state.actions)[0]?.href;
  const value = href ? new URL(href, "http://x").searchParams.get("action") : null;
  if (!value) throw new Error(`no action href in state ${state.name}`);
  return value.slice(value.lastIndexOf("@") + 1);
}

/** Expects a state (HTTP 200 unless `status`), with exactly these actions when given. */
export function expectState(call: FlowCall, name: string, actions?: string[], status = 200): FlowResponse {
  expect(call.body.name, JSON.stringify(call.body.error ?? call.body)).toBe(name);
  expect(call.res.status).toBe(status);
  if (actions) expect(Object.keys(call.body.actions).sort()).toEqual([...actions].sort());
  return call.body;
}

/** Expects an error answer: the code, the status, and the Hanko shape of the state it names. */
export function expectFlowError(call: FlowCall, code: string, status: number, state = "error"): FlowResponse {
  const { res, body } = call;
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.name).toBe(state);
  expect(body.status).toBe(status);
  expect(body.error?.code).toBe(code);
  expect(typeof body.error?.message).toBe("string");
  expect(Array.isArray(body.links)).toBe(true);
  if (state === "error") {
    expect(body.actions).toEqual({});
    expect(body.csrf_token).toBe("");
    expect(body.payload).toBeUndefined();
  } else {
    expect(body.csrf_token).toMatch(/^[\w-]{32}$/);
  }
  return body;
}

/** The flow's row, for checks that a refused step changed nothing. */
export async function flowRow(tenant: Tenant, flowId: string): Promise<FlowRow> {
  const db = await executor();
  const [row] = await db
    .select()
    .from(flows)
    .where(and(eq(flows.tenantId, tenant.id), eq(flows.id, flowId)));
  if (!row) throw new Error(`no flow ${flowId}`);
  return row;
}

/** The session cookie value an answer set (default cookie name). */
export function sessionCookieOf(res: Response): string | undefined {
  return /(?:^|, )hanko=([^;]+);/.exec(res.headers.get("set-cookie") ?? "")?.[1];
}
