import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UAF_DIRECT_ROUTES } from "@/app/(authenticator-api)/v1/uaf/direct-routes";
import { FLOW_DIRECT_ROUTES } from "@/app/(flow-api)/t/[tenantId]/direct-routes";
import { OPENID_DIRECT_ROUTES } from "@/app/(openid)/t/[tenantId]/direct-routes";
import { PASSKEY_DIRECT_ROUTES } from "@/app/(passkey-api)/passkey/direct-routes";
import { installDirectRoutes, type DirectDispatch } from "@/lib/http/direct";
import { setupUafTenant } from "@/tests/helpers/authenticator-api";
import { createTestTenant } from "@/tests/helpers/tenants";

const FILES = {
  "/passkey/[tenantId]/login/initialize": () =>
    import("@/app/(passkey-api)/passkey/[tenantId]/login/initialize/route"),
  "/passkey/[tenantId]/login/finalize": () =>
    import("@/app/(passkey-api)/passkey/[tenantId]/login/finalize/route"),
  "/passkey/[tenantId]/registration/initialize": () =>
    import("@/app/(passkey-api)/passkey/[tenantId]/registration/initialize/route"),
  "/passkey/[tenantId]/registration/finalize": () =>
    import("@/app/(passkey-api)/passkey/[tenantId]/registration/finalize/route"),
  "/t/[tenantId]/login": () => import("@/app/(flow-api)/t/[tenantId]/login/route"),
  "/t/[tenantId]/registration": () => import("@/app/(flow-api)/t/[tenantId]/registration/route"),
  "/t/[tenantId]/profile": () => import("@/app/(flow-api)/t/[tenantId]/profile/route"),
  "/t/[tenantId]/token_exchange": () => import("@/app/(flow-api)/t/[tenantId]/token_exchange/route"),
  "/t/[tenantId]/sessions/validate": () => import("@/app/(public-api)/t/[tenantId]/sessions/validate/route"),
  "/t/[tenantId]/me": () => import("@/app/(public-api)/t/[tenantId]/me/route"),
  // The catch-all route file answers each of these paths of its.
  "/t/[tenantId]/oauth/authorize": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/oauth/token": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/oauth/userinfo": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/oauth/jwks": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/oauth/revoke": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/oauth/introspect": () => import("@/app/(openid)/t/[tenantId]/oauth/[...path]/route"),
  "/t/[tenantId]/.well-known/openid-configuration": () =>
    import("@/app/(openid)/t/[tenantId]/.well-known/openid-configuration/route"),
  "/v1/uaf/requests": () => import("@/app/(authenticator-api)/v1/uaf/requests/route"),
  "/v1/uaf/requests/[id]": () => import("@/app/(authenticator-api)/v1/uaf/requests/[id]/route"),
  "/v1/uaf/requests/[id]/link": () => import("@/app/(authenticator-api)/v1/uaf/requests/[id]/link/route"),
  "/v1/uaf/app/requests/[id]": () => import("@/app/(authenticator-api)/v1/uaf/app/requests/[id]/route"),
} as const;
const DIRECT_ROUTES = [
  ...PASSKEY_DIRECT_ROUTES,
  ...FLOW_DIRECT_ROUTES,
  ...OPENID_DIRECT_ROUTES,
  ...UAF_DIRECT_ROUTES,
];

describe("routes served directly (lib/http/direct.ts)", () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    installDirectRoutes(DIRECT_ROUTES);
    const dispatch = (globalThis as Record<symbol, DirectDispatch>)[Symbol.for("sesame.directRoutes")]!;
    // What scripts/server.mjs does: the direct route, else Next.js (here a marker answer).
    server = http.createServer((req, res) => {
      if (dispatch(req, res)) return;
      req.resume();
      res.writeHead(599).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("serves each route file's own handlers at that file's path", async () => {
    expect(DIRECT_ROUTES).toHaveLength(Object.keys(FILES).length);
    for (const route of DIRECT_ROUTES) {
      // Each capture group is the route file's folder of that parameter.
      let param = 0;
      const path = route.pattern.source
        .replace(/^\^/, "")
        .replace(/\$$/, "")
        .replace(/\([^)]*\)/g, () => `[${route.params[param++]}]`)
        .replace(/\\\//g, "/")
        .replace(/\\\./g, ".");
      expect(param, path).toBe(route.params.length);
      const load = FILES[path as keyof typeof FILES];
      expect(load, path).toBeDefined();
      const file = await load();
      for (const method of ["GET", "POST", "PUT", "DELETE", "OPTIONS"]) {
        expect(route.module[method], `${method} ${path}`).toBe((file as Record<string, unknown>)[method]);
      }
    }
  });

  it("answers a ceremony as the route does, errors in the Passkey API's shape", async () => {
    const { tenant } = await createTestTenant({
      platform: { rateLimits: { webauthn_login: { points: 1000, durationSeconds: 60 } } },
    } as never);
    const init = await fetch(`${base}/passkey/${tenant.id}/login/initialize`, { method: "POST" });
    expect(init.status).toBe(200);
    expect(init.headers.get("x-request-id")).toBeTruthy();
    expect(((await init.json()) as { publicKey: { rpId: string } }).publicKey.rpId).toBe("localhost");

    const malformed = await fetch(`${base}/passkey/${tenant.id}/login/finalize`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400, title: expect.any(Array) });

    // The client's Host header has no say in the request the handler sees.
    const oddHost = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${base}/passkey/${tenant.id}/login/initialize`);
      http
        .request({
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { host: "a b@[" },
        })
        .on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject)
        .end();
    });
    expect(oddHost).toBe(200);

    const unknown = await fetch(`${base}/passkey/00000000-0000-4000-8000-000000000000/login/initialize`, {
      method: "POST",
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404 });
  });

  it("runs flow steps and answers the session reads as the routes do (hrefs, CSRF tokens, error shapes)", async () => {
    const { tenant } = await createTestTenant();
    const headers = { origin: "http://localhost:3000", "content-type": "application/json" };
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${base}/t/${tenant.id}${path}`, {
        method: "POST",
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { res, state: (await res.json()) as FlowState };
    };
    type FlowState = { name: string; csrf_token: string; actions: Record<string, { href: string }> };
    const { res, state } = await post("/login");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(state.name).toBe("preflight");
    const body = { input_data: { webauthn_available: true }, csrf_token: state.csrf_token };
    const init = await post(state.actions.register_client_capabilities!.href, body);
    expect(init.state.name).toBe("login_init");
    // The token was used: the same request again is refused in the flow's error shape.
    const again = await post(state.actions.register_client_capabilities!.href, body);
    expect(again.res.status).toBe(403);
    expect(again.state.name).toBe("error");

    const validate = await fetch(`${base}/t/${tenant.id}/sessions/validate`, {
      method: "POST",
      headers,
      body: JSON.stringify({ session_token: "x" }),
    });
    expect(await validate.json()).toEqual({ is_valid: false });
    const me = await fetch(`${base}/t/${tenant.id}/me`, { headers: { authorization: "Bearer x" } });
    expect(me.status).toBe(401);
  });

  it("answers the OpenID Provider's endpoints as the routes do (discovery, authorization errors, tokens)", async () => {
    const { tenant } = await createTestTenant();
    const discovery = await fetch(`${base}/t/${tenant.id}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    const metadata = (await discovery.json()) as { issuer: string; token_endpoint: string };
    expect(metadata.issuer).toMatch(new RegExp(`/t/${tenant.id}$`));
    expect(metadata.token_endpoint).toBe(`${metadata.issuer}/oauth/token`);
    const jwks = await fetch(`${base}/t/${tenant.id}/oauth/jwks`);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    // An unknown client: oidc-provider's error page, which never leaks its URL to another site.
    const authorize = await fetch(`${base}/t/${tenant.id}/oauth/authorize?client_id=nope&response_type=code`);
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await authorize.text()).toContain("invalid_client");
    const token = await fetch(`${base}/t/${tenant.id}/oauth/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("nope:secret").toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2Flocalhost%2Fcb",
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({ error: "invalid_client" });
    // Logout and the interaction route stay with Next.js.
    expect((await fetch(`${base}/t/${tenant.id}/oauth/logout`)).status).toBe(599);
  });

  it("runs the UAF out-of-band round trip as the routes do (REG, AUTH, the app's token, error shapes)", async () => {
    const { keys, phone } = await setupUafTenant();
    const rp = { authorization: `secret ${keys.authenticator}`, "content-type": "application/json" };
    type UafRequest = { id: string; status: string; request: string; operation: string };
    const roundTrip = async (operation: "REG" | "AUTH") => {
      const create = await fetch(`${base}/v1/uaf/requests`, {
        method: "POST",
        headers: rp,
        body: JSON.stringify({ operation, userId: "direct-uaf-user" }),
      });
      expect(create.status).toBe(200);
      expect(create.headers.get("x-request-id")).toBeTruthy();
      const { id } = (await create.json()) as UafRequest;
      const link = await fetch(`${base}/v1/uaf/requests/${id}/link`, { headers: rp });
      const { href } = (await link.json()) as { href: string };
      // The link names Sesame's base URL; the phone reaches this server instead.
      const app = `${base}${new URL(href).pathname}${new URL(href).search}`;
      const fetched = (await (await fetch(app)).json()) as UafRequest;
      expect(fetched).toMatchObject({ id, operation, status: "PENDING" });
      const uafResponse =
        operation === "REG" ? phone.register(fetched.request) : phone.authenticate(fetched.request);
      const answer = await fetch(app, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uafResponse }),
      });
      expect(((await answer.json()) as UafRequest).status).toBe("OK");
      // The token answered once: a replay is refused in the Authenticator API's error shape.
      const replay = await fetch(app, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uafResponse }),
      });
      expect(replay.status).toBe(401);
      const status = await fetch(`${base}/v1/uaf/requests/${id}`, { headers: rp });
      expect(((await status.json()) as UafRequest).status).toBe("OK");
    };
    await roundTrip("REG");
    await roundTrip("AUTH");
    const unknown = await fetch(`${base}/v1/uaf/requests/00000000-0000-4000-8000-000000000000`, {
      headers: rp,
    });
    expect(unknown.status).toBe(404);
    const unauthenticated = await fetch(`${base}/v1/uaf/requests`, { method: "POST", body: "{}" });
    expect(unauthenticated.status).toBe(401);
  });

  it("leaves everything else to Next.js: other paths and methods, disguised paths, large or chunked bodies", async () => {
    const { tenant } = await createTestTenant();
    const path = `/passkey/${tenant.id}/login/initialize`;
    const next = async (url: string, init: RequestInit = {}) => (await fetch(`${base}${url}`, init)).status;
    expect(await next(`/passkey/${tenant.id}/credentials`)).toBe(599);
    expect(await next("/v1/uaf/requests/not-a-uuid")).toBe(599);
    expect(await next("/v1/uaf/requests/00000000-0000-4000-8000-000000000000/qrcode")).toBe(599);
    expect(await next(path, { method: "GET" })).toBe(599);
    expect(await next(path.replace("login", "%6cogin"), { method: "POST" })).toBe(599);
    expect(await next(`/passkey//${tenant.id}/login/initialize`, { method: "POST" })).toBe(599);
    expect(await next(`${path}/`, { method: "POST" })).toBe(599);
    expect(await next(path, { method: "POST", body: "x".repeat(70 * 1024) })).toBe(599);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{}"));
        controller.close();
      },
    });
    expect(await next(path, { method: "POST", body: chunked, duplex: "half" } as RequestInit)).toBe(599);
  });
});
