import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as byName from "@/app/(flow-api)/t/[tenantId]/flow/[flow]/route";
import * as finalize from "@/app/(flow-api)/t/[tenantId]/flow/[flow]/finalize/route";
import * as initialize from "@/app/(flow-api)/t/[tenantId]/flow/[flow]/initialize/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { flows } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { mintOneTimeToken } from "@/lib/one-time-tokens";
import type { Tenant } from "@/lib/tenants";
import { call } from "../helpers/http";
import {
  act,
  expectFlowError,
  expectState,
  FLOW_ROUTES,
  flowIdOf,
  flowRow,
  postHref,
  startFlow,
  type FlowCall,
} from "../helpers/flows";
import { createPublicTenant, createUserWithEmail, ORIGIN } from "../helpers/public-api";
import { bindingCookie, bindingOf } from "../helpers/token-binding";

async function spec(
  handler: typeof initialize.POST,
  tenant: Tenant,
  path: string,
  flow: string,
  body?: unknown,
): Promise<FlowCall> {
  const res = await call(handler, `/t/${tenant.id}/flow/${flow}${path}`, {
    method: "POST",
    body,
    headers: { origin: ORIGIN, cookie: bindingCookie() },
    params: { tenantId: tenant.id, flow },
  });
  return { res, body: (await res.json()) as FlowResponse };
}

async function tokenFor(tenant: Tenant): Promise<string> {
  const user = await createUserWithEmail(tenant);
  return mintOneTimeToken(tenant, user.id, { amr: ["ext:test"], binding: bindingOf() });
}

describe("flow API engine", () => {
  it("runs a flow through the spec's initialize and finalize, with the action in the query or the body", async () => {
    const tenant = await createPublicTenant();
    for (const where of ["query", "body", "flow_id"] as const) {
      const started = await spec(initialize.POST, tenant, "/initialize", "token_exchange", { ignored: true });
      const state = expectState(started, "thirdparty", ["exchange_token"]);
      const id = flowIdOf(state);
      const body = {
        input_data: { token: await tokenFor(tenant) },
        csrf_token: state.csrf_token,
        ...(where === "body" ? { action: `exchange_token@${id}` } : {}),
        ...(where === "flow_id" ? { action: "exchange_token", flow_id: id } : {}),
      };
      const path = where === "query" ? `/finalize?action=exchange_token%40${id}` : "/finalize";
      expectState(await spec(finalize.POST, tenant, path, "token_exchange", body), "success", []);
    }
  });

  it("serves Hanko's form under /flow/{flow} too, with the same hrefs", async () => {
    const tenant = await createPublicTenant();
    const started = await spec(byName.POST, tenant, "", "token_exchange");
    const state = expectState(started, "thirdparty");
    expect(state.actions.exchange_token!.href).toBe(
      `/token_exchange?action=exchange_token%40${flowIdOf(state)}`,
    );
    const path = `?action=exchange_token%40${flowIdOf(state)}`;
    const done = await spec(byName.POST, tenant, path, "token_exchange", {
      input_data: { token: await tokenFor(tenant) },
      csrf_token: state.csrf_token,
    });
    expectState(done, "success");
  });

  it("refuses a finalize without an action, a malformed action and an unknown flow, in the flow error shape", async () => {
    const tenant = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const before = await flowRow(tenant, flowIdOf(state));
    const body = { input_data: { token: "x" }, csrf_token: state.csrf_token };
    expectFlowError(
      await spec(finalize.POST, tenant, "/finalize", "token_exchange", body),
      "operation_not_permitted_error",
      403,
    );
    for (const action of [
      "exchange_token",
      `exchange_token@not-a-uuid`,
      `exchange_token@${crypto.randomUUID()}`,
    ]) {
      const refused = await postHref(tenant, `/token_exchange?action=${encodeURIComponent(action)}`, body);
      expectFlowError(refused, "operation_not_permitted_error", 403);
    }
    expect(await flowRow(tenant, flowIdOf(state))).toEqual(before);
  });

  it("refuses another tenant's flow and an action the state does not offer, leaving the flow as it was", async () => {
    const tenant = await createPublicTenant();
    const other = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const id = flowIdOf(state);
    const before = await flowRow(tenant, id);
    const body = { input_data: {}, csrf_token: state.csrf_token };
    expectFlowError(
      await postHref(other, state.actions.exchange_token!.href, body),
      "operation_not_permitted_error",
      403,
    );
    expectFlowError(
      await postHref(tenant, `/token_exchange?action=back%40${id}`, body),
      "operation_not_permitted_error",
      403,
    );
    expectFlowError(
      await postHref(tenant, `/token_exchange?action=verify_passcode%40${id}`, body),
      "operation_not_permitted_error",
      403,
    );
    expect(await flowRow(tenant, id)).toEqual(before);
  });

  it("refuses a flow's action posted to another flow's URL", async () => {
    const tenant = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const res = await call(
      FLOW_ROUTES.login.POST,
      `/t/${tenant.id}/login?action=exchange_token%40${flowIdOf(state)}`,
      {
        method: "POST",
        body: { input_data: { token: "x" }, csrf_token: state.csrf_token },
        params: { tenantId: tenant.id },
      },
    );
    const body = (await res.json()) as FlowResponse;
    expect(body.name).toBe("error");
    expect(["operation_not_permitted_error", "not_found"]).toContain(body.error?.code);
    expect(await flowRow(tenant, flowIdOf(state))).toMatchObject({ state: "thirdparty", version: 0 });
  });

  it("answers flow_expired_error 410 for an expired flow and changes nothing", async () => {
    const tenant = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const id = flowIdOf(state);
    const db = await executor();
    await db
      .update(flows)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(flows.tenantId, tenant.id), eq(flows.id, id)));
    const before = await flowRow(tenant, id);
    expectFlowError(await act(tenant, state, "exchange_token", { token: "x" }), "flow_expired_error", 410);
    expect(await flowRow(tenant, id)).toEqual(before);
  });

  it("lets exactly one of concurrent requests with the same CSRF token take the step", async () => {
    const tenant = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const token = await tokenFor(tenant);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        act(tenant, state, "exchange_token", { token }, { binding: bindingCookie() }),
      ),
    );
    const statuses = results.map((result) => result.res.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403, 403]);
    expect(await flowRow(tenant, flowIdOf(state))).toMatchObject({ state: "success", version: 1 });
  });

  it("lets exactly one of concurrent requests take a step that writes only the flow (claimed as it is saved)", async () => {
    const tenant = await createPublicTenant();
    const preflight = expectState(await startFlow(tenant, "login"), "preflight");
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        act(tenant, preflight, "register_client_capabilities", { webauthn_available: true }),
      ),
    );
    const statuses = results.map((result) => result.res.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403, 403]);
    const won = results.find((result) => result.res.status === 200)!;
    for (const lost of results.filter((result) => result.res.status === 403)) {
      expectFlowError(lost, "operation_not_permitted_error", 403);
    }
    const row = await flowRow(tenant, flowIdOf(preflight));
    expect(row).toMatchObject({ state: "login_init", version: 1 });
    // The winner's token is the flow's next one.
    expectState(await act(tenant, won.body, "webauthn_generate_request_options"), "login_passkey");
  });

  it("answers an unknown tenant and a malformed body in the flow error shape", async () => {
    const tenant = await createPublicTenant();
    const missing = crypto.randomUUID();
    const res = await call(FLOW_ROUTES.login.POST, `/t/${missing}/login`, {
      method: "POST",
      params: { tenantId: missing },
    });
    expectFlowError({ res, body: (await res.json()) as FlowResponse }, "not_found", 404);

    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const before = await flowRow(tenant, flowIdOf(state));
    for (const body of ["{not json", JSON.stringify({ input_data: "x", csrf_token: state.csrf_token })]) {
      const bad = await call(
        FLOW_ROUTES.token_exchange.POST,
        `/t/${tenant.id}${state.actions.exchange_token!.href}`,
        {
          method: "POST",
          body,
          params: { tenantId: tenant.id },
        },
      );
      expectFlowError({ res: bad, body: (await bad.json()) as FlowResponse }, "form_data_invalid_error", 400);
    }
    expect(await flowRow(tenant, flowIdOf(state))).toEqual(before);
  });

  it("allows the tenant's origins with credentials and exposes the session headers", async () => {
    const tenant = await createPublicTenant();
    const preflight = await call(FLOW_ROUTES.login.OPTIONS, `/t/${tenant.id}/login`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-language",
      },
      params: { tenantId: tenant.id },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, x-language");

    const started = await startFlow(tenant, "token_exchange", { headers: { origin: ORIGIN } });
    expect(started.res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(started.res.headers.get("access-control-expose-headers")).toContain("X-Auth-Token");
    const foreign = await startFlow(tenant, "token_exchange", {
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("limits flow requests per client with the tenant's flow rate limit, in the flow error shape", async () => {
    const tenant = await createPublicTenant({
      platform: { rateLimits: { flow: { points: 2, durationSeconds: 60 } } },
    });
    expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const limited = await startFlow(tenant, "token_exchange");
    expectFlowError(limited, "rate_limit_exceeded", 429);
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const refusedStep = await act(tenant, state, "exchange_token", { token: "x" });
    expectFlowError(refusedStep, "rate_limit_exceeded", 429);
    expect(await flowRow(tenant, flowIdOf(state))).toMatchObject({ state: "thirdparty", version: 0 });
  });

  it("audits the start, every step and every refusal", async () => {
    const tenant = await createPublicTenant();
    const state = expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
    const failed = await act(tenant, state, "exchange_token", { token: "nope" });
    expectFlowError(failed, "form_data_invalid_error", 400, "thirdparty");
    await act(tenant, state, "exchange_token", { token: "reused-csrf" });
    expectState(
      await act(
        tenant,
        failed.body,
        "exchange_token",
        { token: await tokenFor(tenant) },
        { binding: bindingCookie() },
      ),
      "success",
    );
    const types = (await listAuditEvents(tenant.id, { limit: 50 })).items.map((event) => event.type);
    for (const type of [
      "flow.token_exchange.started",
      "flow.token_exchange.exchange_token.failed",
      "flow.token_exchange.rejected",
      "flow.token_exchange.exchange_token.succeeded",
      "session.created",
    ]) {
      expect(types, type).toContain(type);
    }
  });
});
