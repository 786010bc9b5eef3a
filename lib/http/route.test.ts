import { describe, expect, it } from "vitest";
import { z } from "zod";
import { call } from "@/tests/helpers/http";
import { createTestTenant } from "@/tests/helpers/tenants";
import { AppError, NotFound } from "@/lib/errors";
import { revokeApiKey, listApiKeys } from "@/lib/api-keys";
import { TenantIdParam } from "@/lib/contracts/schemas";
import type { Tenant } from "@/lib/tenants";
import { createPublicTenant, createUserWithEmail, sessionFor } from "@/tests/helpers/public-api";
import { defineContract, type SessionOption, type Surface } from "@/lib/contracts/contract";
import { MAX_BODY_BYTES } from "./body";
import { route } from "./route";

const Body = z.object({ name: z.string().max(8) });

function echo(surface: Surface, auth: "none" | "admin-key" | "passkey-key" | "authenticator-key" = "none") {
  const contract = defineContract({
    surface,
    method: "POST",
    path: "/t/{tenantId}/echo",
    operationId: `echo-${surface}`,
    summary: "echo",
    auth: { kind: auth },
    params: z.object({ tenantId: TenantIdParam }),
    body: Body,
    responses: {},
  });
  // `auth` is a union here, so the input's `tenant` type is too narrow: read it as what route() passes.
  return route(contract, async ({ body, key, tenant }) => {
    const loaded = tenant as Tenant | undefined;
    return Response.json({ body, tenantId: key?.tenantId ?? null, ...(loaded ? { tenant: loaded.id } : {}) });
  });
}

function failing(surface: Surface, error: unknown) {
  const contract = defineContract({
    surface,
    method: "GET",
    path: "/fail",
    operationId: `fail-${surface}`,
    summary: "fail",
    auth: { kind: "none" },
    responses: {},
  });
  return route(contract, async () => {
    throw error;
  });
}

const TENANT = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
const params = { tenantId: TENANT };

describe("error presenters", () => {
  it("platform errors are {code, message}", async () => {
    const res = await call(failing("public", new NotFound()), "/fail");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, message: "Not Found" });
  });

  it("Authenticator 404s spell the field `messsage`, as the spec does", async () => {
    const res = await call(failing("authenticator", new NotFound()), "/fail");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, messsage: "Not Found" });
  });

  it("other Authenticator errors use `message`", async () => {
    const res = await call(failing("authenticator", new AppError("BAD_REQUEST")), "/fail");
    expect(await res.json()).toEqual({ code: 400, message: "Bad Request" });
  });

  it("Passkey errors carry title and details as arrays", async () => {
    const res = await call(
      failing("passkey", new AppError("CONFLICT", "Already there", { details: ["a", "b"] })),
      "/fail",
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ title: ["Already there"], details: ["a", "b"], status: 409 });
  });

  it.each(["public", "authenticator", "passkey"] as const)(
    "an unknown error on %s is a generic 500 that leaks nothing, with a request id",
    async (surface) => {
      const res = await call(failing(surface, new Error("connection string postgres://secret@db")), "/fail");
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).toContain("Internal Server Error");
      expect(text).not.toContain("secret");
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it("echoes a safe incoming X-Request-Id and replaces an unsafe one", async () => {
    const safe = await call(failing("public", new NotFound()), "/fail", {
      headers: { "x-request-id": "abc-123" },
    });
    expect(safe.headers.get("x-request-id")).toBe("abc-123");
    const unsafe = await call(failing("public", new NotFound()), "/fail", {
      headers: { "x-request-id": "<script>" },
    });
    expect(unsafe.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("request bodies", () => {
  it.each([
    ["public", { code: 400, message: "Request body is not valid JSON" }],
    ["authenticator", { code: 400, message: "Request body is not valid JSON" }],
    [
      "passkey",
      {
        title: ["Request body is not valid JSON"],
        details: ["The request body could not be parsed as JSON."],
        status: 400,
      },
    ],
  ] as const)("malformed JSON on %s is 400 in its shape", async (surface, expected) => {
    const res = await call(echo(surface), "/t/x/echo", { method: "POST", body: "{not json", params });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(expected);
  });

  it.each(["public", "authenticator", "passkey"] as const)(
    "a non-JSON content type on %s is 415",
    async (surface) => {
      const res = await call(echo(surface), "/t/x/echo", {
        method: "POST",
        body: "name=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        params,
      });
      expect(res.status).toBe(415);
      expect(JSON.stringify(await res.json())).toContain("415");
    },
  );

  it.each(["public", "authenticator", "passkey"] as const)(
    "a body over 64 KiB on %s is 413",
    async (surface) => {
      const big = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) });
      const res = await call(echo(surface), "/t/x/echo", { method: "POST", body: big, params });
      expect(res.status).toBe(413);
      expect(JSON.stringify(await res.json())).toContain("413");
    },
  );

  it("a streamed body over 64 KiB without Content-Length is 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const req = new Request("http://localhost/t/x/echo", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    const res = await echo("public")(req, { params: Promise.resolve(params) });
    expect(res.status).toBe(413);
  });

  it("validation errors name the field, in the surface's shape", async () => {
    const res = await call(echo("passkey"), "/t/x/echo", {
      method: "POST",
      body: { name: "much too long" },
      params,
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.status).toBe(400);
    expect(body.details[0]).toMatch(/^body\.name: /);
  });

  it("an empty body is 400 naming the required fields, or saying a body is required", async () => {
    const optional = route(
      defineContract({
        surface: "passkey",
        method: "POST",
        path: "/optional",
        operationId: "optional",
        summary: "optional",
        auth: { kind: "none" },
        body: z.object({ name: z.string().optional() }),
        responses: {},
      }),
      async () => Response.json({}),
    );
    for (const [handler, details] of [
      [echo("passkey"), ["body.name: Invalid input: expected string, received undefined"]],
      [optional, ["body: is required"]],
    ] as const) {
      const res = await call(handler, "/t/x/echo", { method: "POST", params });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual(details);
    }
  });

  it("accepts application/json with a charset and passes the parsed body on", async () => {
    const res = await call(echo("public"), "/t/x/echo", {
      method: "POST",
      body: { name: "ok" },
      headers: { "content-type": "application/json; charset=utf-8" },
      params,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: { name: "ok" }, tenantId: null });
  });

  it("rejects a tenant id that is not a UUID with 400", async () => {
    const res = await call(echo("public"), "/t/x/echo", {
      method: "POST",
      body: { name: "ok" },
      params: { tenantId: "not-a-uuid" },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("params.tenantId");
  });
});

describe("API key schemes", () => {
  it("admin routes take `Authorization: Bearer` with an admin key of the tenant in the path", async () => {
    const { tenant, keys } = await createTestTenant();
    const handler = echo("admin", "admin-key");
    const ok = await call(handler, "/", {
      method: "POST",
      body: { name: "a" },
      params: { tenantId: tenant.id },
      headers: { authorization: `Bearer ${keys.admin}` },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).tenantId).toBe(tenant.id);

    for (const authorization of [
      `Bearer ${keys.passkey}`,
      `secret ${keys.admin}`,
      keys.admin,
      "Bearer",
      "",
    ]) {
      const res = await call(handler, "/", {
        method: "POST",
        body: { name: "a" },
        params: { tenantId: tenant.id },
        headers: { authorization },
      });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
    }
  });

  it("a key of another tenant is 401 and reveals nothing", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const res = await call(echo("admin", "admin-key"), "/", {
      method: "POST",
      body: { name: "a" },
      params: { tenantId: b.tenant.id },
      headers: { authorization: `Bearer ${a.keys.admin}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: "Unauthorized" });
  });

  it("authenticator routes take both `secret` and `Bearer`, and the key names the tenant", async () => {
    const { tenant, keys } = await createTestTenant();
    const handler = echo("authenticator", "authenticator-key");
    for (const scheme of ["secret", "Bearer", "SECRET"]) {
      const res = await call(handler, "/", {
        method: "POST",
        body: { name: "a" },
        params,
        headers: { authorization: `${scheme} ${keys.authenticator}` },
      });
      expect(res.status, scheme).toBe(200);
      expect(await res.json()).toMatchObject({ tenantId: tenant.id, tenant: tenant.id });
    }
    const basic = await call(handler, "/", {
      method: "POST",
      body: { name: "a" },
      params,
      headers: { authorization: `Basic ${keys.authenticator}` },
    });
    expect(basic.status).toBe(401);
    expect(await basic.json()).toEqual({ code: 401, message: "Unauthorized" });
  });

  it("passkey routes take the apiKey header and answer 401 in the Passkey shape", async () => {
    const { tenant, keys } = await createTestTenant();
    const handler = echo("passkey", "passkey-key");
    const ok = await call(handler, "/", {
      method: "POST",
      body: { name: "a" },
      params: { tenantId: tenant.id },
      headers: { apikey: keys.passkey },
    });
    expect(ok.status).toBe(200);
    const wrong = await call(handler, "/", {
      method: "POST",
      body: { name: "a" },
      params: { tenantId: tenant.id },
      headers: { apikey: keys.admin },
    });
    expect(wrong.status).toBe(401);
    const body = await wrong.json();
    expect(body).toMatchObject({ title: ["Unauthorized"], status: 401 });
    expect(body.details[0]).toContain("apiKey");
  });

  it("a revoked key stops working at once", async () => {
    const { tenant, keys } = await createTestTenant();
    const adminKey = (await listApiKeys(tenant.id)).find((k) => k.scopes.includes("admin"));
    await revokeApiKey(tenant.id, adminKey!.id);
    const res = await call(echo("admin", "admin-key"), "/", {
      method: "POST",
      body: { name: "a" },
      params: { tenantId: tenant.id },
      headers: { authorization: `Bearer ${keys.admin}` },
    });
    expect(res.status).toBe(401);
  });

  it("authenticates before it reads the body: a bad key with a bad body is 401", async () => {
    const res = await call(echo("admin", "admin-key"), "/", {
      method: "POST",
      body: "{broken",
      params,
      headers: { authorization: "Bearer nope" },
    });
    expect(res.status).toBe(401);
  });
});

describe("optional sessions", () => {
  function whoAmI(session: SessionOption) {
    const contract = defineContract({
      surface: "public",
      method: "POST",
      path: "/t/{tenantId}/who",
      operationId: "who",
      summary: "who",
      auth: { kind: "none" },
      session,
      loadsTenant: true,
      params: z.object({ tenantId: TenantIdParam }),
      responses: {},
    });
    return route(contract, async ({ session, audit }) =>
      Response.json({ user: session?.user.id ?? null, via: session?.via ?? null, actor: audit.actor }),
    );
  }

  it("hands the handler the caller's valid session, and undefined without one or with a bad token", async () => {
    const tenant = await createPublicTenant();
    const user = await createUserWithEmail(tenant);
    const token = await sessionFor(tenant, user);
    const handler = whoAmI("optional");
    const post = (headers: Record<string, string>) =>
      call(handler, "/", { method: "POST", params: { tenantId: tenant.id }, headers });

    const bearer = await post({ authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(200);
    // The session stays out of the audit actor: the handler decides what it means.
    expect(await bearer.json()).toEqual({ user: user.id, via: "bearer", actor: null });
    const cookie = await post({ cookie: `hanko=${token}` });
    expect(await cookie.json()).toMatchObject({ user: user.id, via: "cookie" });
    const refused: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-a-jwt" },
      { cookie: "hanko=not-a-jwt" },
    ];
    for (const headers of refused) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(await res.json()).toMatchObject({ user: null, via: null });
    }
  });

  it("resolves the session only where the contract's function says so", async () => {
    const tenant = await createPublicTenant();
    const token = await sessionFor(tenant, await createUserWithEmail(tenant));
    const res = await call(
      whoAmI(() => false),
      "/",
      { method: "POST", params: { tenantId: tenant.id }, headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).user).toBeNull();
  });
});
