import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/api-keys";
import { passkeyRequest, type PasskeyRequest } from "@/tests/helpers/passkey-api";
import { ORIGIN, registerPasskey, startLogin } from "@/tests/helpers/passkey-ceremonies";
import {
  attest,
  challengeCount,
  expectPasskeyError,
  initRegistration,
  newUserId,
  setupTenant,
  storedCredential,
  tenantState,
  type TestTenant,
} from "@/tests/helpers/passkey-security";

type Method = Parameters<typeof passkeyRequest>[1];

/** Everything a failed request must leave alone, challenges included. */
async function snapshot(tenantId: string) {
  return { ...(await tenantState(tenantId)), challenges: await challengeCount(tenantId) };
}

/** A tenant with a user who has a passkey (used once) and an MFA key. */
async function populated() {
  const t = await setupTenant();
  const userId = newUserId();
  const passkey = await registerPasskey(t.ctx, userId);
  const mfa = await registerPasskey(t.ctx, userId, { mfa: true });
  return { ...t, userId, credentialId: passkey.credentialId, mfaCredentialId: mfa.credentialId };
}
type Populated = Awaited<ReturnType<typeof populated>>;

interface KeyedRoute {
  method: Method;
  path: (t: Populated) => string;
  /** Builds a request body that succeeds with the right key (fresh challenges each time). */
  body?: (t: Populated) => Promise<unknown>;
  ok: number;
}

async function transactionOptions(t: Populated) {
  const res = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
    apiKey: t.keys.passkey,
    body: { user_id: t.userId, transaction_id: randomUUID(), transaction_data: { n: 1 } },
  });
  expect(res.status).toBe(200);
  return (await res.json()).publicKey;
}

/** Every route that needs the tenant's passkey-scoped key in the `apiKey` header. */
const KEYED_ROUTES: Record<string, KeyedRoute> = {
  "POST /registration/initialize": {
    method: "POST",
    path: () => "/registration/initialize",
    body: async () => ({ user_id: newUserId(), username: "someone" }),
    ok: 200,
  },
  "POST /mfa/registration/initialize": {
    method: "POST",
    path: () => "/mfa/registration/initialize",
    body: async () => ({ user_id: newUserId(), username: "someone" }),
    ok: 200,
  },
  "POST /mfa/registration/finalize": {
    method: "POST",
    path: () => "/mfa/registration/finalize",
    body: async (t) => attest(t.authenticator, await initRegistration(t.ctx, t.userId, "mfa/registration")),
    ok: 200,
  },
  "POST /login/initialize with user_id": {
    method: "POST",
    path: () => "/login/initialize",
    body: async (t) => ({ user_id: t.userId }),
    ok: 200,
  },
  "POST /mfa/login/initialize": {
    method: "POST",
    path: () => "/mfa/login/initialize",
    body: async (t) => ({ user_id: t.userId }),
    ok: 200,
  },
  "POST /mfa/login/finalize": {
    method: "POST",
    path: () => "/mfa/login/finalize",
    body: async (t) =>
      t.authenticator.login(await startLogin(t.ctx, t.userId, "mfa/login"), {
        origin: ORIGIN,
        credentialId: t.mfaCredentialId,
      }),
    ok: 200,
  },
  "POST /transaction/initialize": {
    method: "POST",
    path: () => "/transaction/initialize",
    body: async (t) => ({ user_id: t.userId, transaction_id: randomUUID(), transaction_data: [1, 2] }),
    ok: 200,
  },
  "POST /transaction/finalize": {
    method: "POST",
    path: () => "/transaction/finalize",
    body: async (t) => t.authenticator.login(await transactionOptions(t), { origin: ORIGIN }),
    ok: 200,
  },
  "GET /transaction/{userId}": { method: "GET", path: (t) => `/transaction/${t.userId}`, ok: 200 },
  "GET /credentials": { method: "GET", path: (t) => `/credentials?user_id=${t.userId}`, ok: 200 },
  "GET /credentials/{id}": { method: "GET", path: (t) => `/credentials/${t.credentialId}`, ok: 200 },
  "PATCH /credentials/{id}": {
    method: "PATCH",
    path: (t) => `/credentials/${t.credentialId}`,
    body: async () => ({ name: "renamed" }),
    ok: 204,
  },
  "DELETE /credentials/{id}": { method: "DELETE", path: (t) => `/credentials/${t.credentialId}`, ok: 204 },
};

describe("Passkey API keys (checklist H)", () => {
  it.each(Object.entries(KEYED_ROUTES))(
    "%s answers 401 to a missing, wrong, revoked, other-tenant or wrong-scope key, and changes nothing",
    async (_name, route) => {
      const t = await populated();
      const other = await setupTenant();
      const revoked = await createApiKey(t.tenant.id, { name: "revoked", scopes: ["passkey"] });
      await revokeApiKey(t.tenant.id, revoked.key.id);
      const badKeys: [string, PasskeyRequest][] = [
        ["no key", {}],
        ["an empty key", { headers: { apikey: "   " } }],
        ["a short wrong key", { apiKey: "x" }],
        ["a long wrong key", { apiKey: `sesame_passkey_${"A".repeat(4000)}` }],
        ["the right key with one character changed", { apiKey: `${t.keys.passkey.slice(0, -1)}!` }],
        ["a revoked key", { apiKey: revoked.secret }],
        ["another tenant's passkey key", { apiKey: other.keys.passkey }],
        ["the tenant's admin key", { apiKey: t.keys.admin }],
        ["the tenant's authenticator key", { apiKey: t.keys.authenticator }],
        ["the key as a Bearer token", { headers: { authorization: `Bearer ${t.keys.passkey}` } }],
      ];
      const path = route.path(t);
      const body = await route.body?.(t);
      const before = await snapshot(t.tenant.id);
      for (const [label, request] of badKeys) {
        const res = await passkeyRequest(t.tenant.id, route.method, path, { ...request, body });
        const error = await expectPasskeyError(res, 401);
        expect(error.title, label).toEqual(["Unauthorized"]);
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
      // Never from the query string either.
      const separator = path.includes("?") ? "&" : "?";
      const inQuery = await passkeyRequest(
        t.tenant.id,
        route.method,
        `${path}${separator}apiKey=${t.keys.passkey}`,
        {
          body,
        },
      );
      await expectPasskeyError(inQuery, 401);
      expect(await snapshot(t.tenant.id)).toEqual(before);

      // The same request with the right key goes through: the key was the only thing wrong.
      const res = await passkeyRequest(t.tenant.id, route.method, path, { apiKey: t.keys.passkey, body });
      expect(res.status, await res.clone().text()).toBe(route.ok);
    },
  );

  it("keeps credential management inside the key's tenant", async () => {
    const a = await populated();
    const b = await populated();
    const before = await snapshot(a.tenant.id);
    for (const method of ["GET", "PATCH", "DELETE"] as const) {
      // Tenant B's key on tenant B's path cannot see tenant A's credential …
      const res = await passkeyRequest(b.tenant.id, method, `/credentials/${a.credentialId}`, {
        apiKey: b.keys.passkey,
        ...(method === "PATCH" ? { body: { name: "stolen" } } : {}),
      });
      await expectPasskeyError(res, 404, { title: "credential not found" });
      // … and on tenant A's path it is not a key at all.
      const cross = await passkeyRequest(a.tenant.id, method, `/credentials/${a.credentialId}`, {
        apiKey: b.keys.passkey,
        ...(method === "PATCH" ? { body: { name: "stolen" } } : {}),
      });
      await expectPasskeyError(cross, 401);
    }
    const list = await passkeyRequest(b.tenant.id, "GET", `/credentials?user_id=${a.userId}`, {
      apiKey: b.keys.passkey,
    });
    expect(await list.json()).toEqual([]);
    const transactions = await passkeyRequest(b.tenant.id, "GET", `/transaction/${a.userId}`, {
      apiKey: b.keys.passkey,
    });
    expect(await transactions.json()).toEqual([]);
    expect(await snapshot(a.tenant.id)).toEqual(before);
  });

  it("ignores fields a rename may not write (mass assignment)", async () => {
    const t = await populated();
    const before = await storedCredential(t.tenant.id, t.credentialId);
    const res = await passkeyRequest(t.tenant.id, "PATCH", `/credentials/${t.credentialId}`, {
      apiKey: t.keys.passkey,
      body: {
        name: "Laptop",
        is_mfa: true,
        user_id: "someone-else",
        sign_count: 0,
        public_key: "AAAA",
        backup_eligible: true,
        tenant_id: randomUUID(),
      },
    });
    expect(res.status).toBe(204);
    expect(await storedCredential(t.tenant.id, t.credentialId)).toEqual({ ...before, name: "Laptop" });
  });
});

describe("Passkey API tenant ids", () => {
  const routes: [Method, string, unknown?][] = [
    ["POST", "/registration/initialize", { user_id: "u", username: "u" }],
    ["POST", "/registration/finalize", {}],
    ["POST", "/login/initialize", {}],
    ["POST", "/login/finalize", {}],
    ["POST", "/mfa/registration/initialize", { user_id: "u", username: "u" }],
    ["POST", "/mfa/registration/finalize", {}],
    ["POST", "/mfa/login/initialize", { user_id: "u" }],
    ["POST", "/mfa/login/finalize", {}],
    ["POST", "/transaction/initialize", {}],
    ["POST", "/transaction/finalize", {}],
    ["GET", "/transaction/u", undefined],
    ["GET", "/credentials?user_id=u", undefined],
    ["GET", "/credentials/abc", undefined],
    ["PATCH", "/credentials/abc", { name: "x" }],
    ["DELETE", "/credentials/abc", undefined],
    ["GET", "/.well-known/jwks.json", undefined],
    ["OPTIONS", "/login/initialize", undefined],
  ];

  it.each(routes)("%s %s: a malformed tenant id is 400, an unknown one 404", async (method, path, body) => {
    const { keys } = await setupTenant();
    for (const malformed of ["not-a-uuid", "123", `${randomUUID()}0`, randomUUID().replace(/-/g, "")]) {
      const res = await passkeyRequest(malformed, method, path, { body, apiKey: keys.passkey });
      await expectPasskeyError(res, 400, { detail: "params.tenantId" });
    }
    const unknown = await passkeyRequest(randomUUID(), method, path, { body, apiKey: keys.passkey });
    await expectPasskeyError(unknown, 404, { title: "tenant not found" });
  });

  it("accepts the tenant id in upper case", async () => {
    const t = await setupTenant();
    const res = await passkeyRequest(t.tenant.id.toUpperCase(), "POST", "/login/initialize", {});
    expect(res.status).toBe(200);
    expect(await challengeCount(t.tenant.id)).toBe(1);
  });
});

describe("Passkey API field limits", () => {
  const long = (n: number) => "a".repeat(n);
  const euro = "€".repeat(22); // 22 characters, 66 bytes of UTF-8

  const registrationBodies: [string, Record<string, unknown>, string][] = [
    ["a username of 129 characters", { user_id: "u1", username: long(129) }, "body.username"],
    ["a blank username", { user_id: "u1", username: "   " }, "body.username"],
    ["no username", { user_id: "u1" }, "body.username"],
    [
      "a display_name of 129 characters",
      { user_id: "u1", username: "a", display_name: long(129) },
      "body.display_name",
    ],
    ["a user_id of 65 bytes", { user_id: long(65), username: "a" }, "body.user_id"],
    ["a user_id of 22 characters but 66 bytes", { user_id: euro, username: "a" }, "body.user_id"],
    ["an empty user_id", { user_id: "", username: "a" }, "body.user_id"],
    ["a numeric user_id", { user_id: 42, username: "a" }, "body.user_id"],
    ["an icon that is not a URL", { user_id: "u1", username: "a", icon: "not a url" }, "body.icon"],
  ];

  it.each(registrationBodies)(
    "registration/initialize refuses %s with 400 naming the field",
    async (_n, body, field) => {
      const t = await setupTenant();
      const before = await snapshot(t.tenant.id);
      for (const kind of ["registration", "mfa/registration"]) {
        const res = await passkeyRequest(t.tenant.id, "POST", `/${kind}/initialize`, {
          apiKey: t.keys.passkey,
          body,
        });
        await expectPasskeyError(res, 400, { detail: field });
      }
      expect(await snapshot(t.tenant.id)).toEqual(before);
    },
  );

  it("registration/initialize accepts the longest allowed values", async () => {
    const t = await setupTenant();
    const userId = "é".repeat(32); // 64 bytes
    const res = await passkeyRequest(t.tenant.id, "POST", "/registration/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: userId, username: long(128), display_name: long(128) },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const { publicKey } = await res.json();
    expect(Buffer.from(publicKey.user.id, "base64url").toString("utf8")).toBe(userId);
    expect(Buffer.from(publicKey.user.id, "base64url")).toHaveLength(64);
  });

  it("transaction/initialize limits transaction_id to 128 characters and requires data", async () => {
    const t = await populated();
    const before = await snapshot(t.tenant.id);
    const bodies: [Record<string, unknown>, string][] = [
      [{ user_id: t.userId, transaction_id: long(129), transaction_data: 1 }, "body.transaction_id"],
      [{ user_id: t.userId, transaction_id: "", transaction_data: 1 }, "body.transaction_id"],
      [{ user_id: t.userId, transaction_id: "t" }, "body.transaction_data"],
      [{ user_id: t.userId, transaction_id: "t", transaction_data: null }, "body.transaction_data"],
      [{ user_id: long(65), transaction_id: "t", transaction_data: 1 }, "body.user_id"],
    ];
    for (const [body, field] of bodies) {
      const res = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
        apiKey: t.keys.passkey,
        body,
      });
      await expectPasskeyError(res, 400, { detail: field });
    }
    expect(await snapshot(t.tenant.id)).toEqual(before);
    const ok = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: t.userId, transaction_id: long(128), transaction_data: { ok: true } },
    });
    expect(ok.status).toBe(200);
  });

  it("login initialize, credential and transaction routes check user ids and credential ids", async () => {
    const t = await populated();
    const before = await snapshot(t.tenant.id);
    const requests: [Method, string, unknown, string][] = [
      ["POST", "/login/initialize", { user_id: long(65) }, "body.user_id"],
      ["POST", "/login/initialize", { user_id: "" }, "body.user_id"],
      ["POST", "/mfa/login/initialize", {}, "body.user_id"],
      ["GET", "/credentials", undefined, "query.user_id"],
      ["GET", `/credentials?user_id=${long(65)}`, undefined, "query.user_id"],
      ["GET", `/transaction/${long(65)}`, undefined, "params.userId"],
      ["GET", "/credentials/abc$def", undefined, "params.credentialId"],
      ["GET", `/credentials/${long(1365)}`, undefined, "params.credentialId"],
      ["PATCH", `/credentials/${t.credentialId}`, { name: long(256) }, "body.name"],
      ["PATCH", `/credentials/${t.credentialId}`, { name: "  " }, "body.name"],
      ["PATCH", `/credentials/${t.credentialId}`, { name: 7 }, "body.name"],
      ["DELETE", "/credentials/a.b", undefined, "params.credentialId"],
    ];
    for (const [method, path, body, field] of requests) {
      const res = await passkeyRequest(t.tenant.id, method, path, { apiKey: t.keys.passkey, body });
      await expectPasskeyError(res, 400, { detail: field });
    }
    expect(await snapshot(t.tenant.id)).toEqual(before);
  });

  it("answers unknown users and credentials with 404", async () => {
    const t = await populated();
    for (const [path, body] of [
      ["/login/initialize", { user_id: newUserId() }],
      ["/mfa/login/initialize", { user_id: newUserId() }],
    ] as const) {
      const res = await passkeyRequest(t.tenant.id, "POST", path, { apiKey: t.keys.passkey, body });
      await expectPasskeyError(res, 404, { title: "user not found" });
    }
    for (const method of ["GET", "DELETE"] as const) {
      const res = await passkeyRequest(t.tenant.id, method, "/credentials/bm90LWEtY3JlZGVudGlhbA", {
        apiKey: t.keys.passkey,
      });
      await expectPasskeyError(res, 404, { title: "credential not found" });
    }
  });
});

describe("Passkey API request bodies", () => {
  const targets: [string, Method, string, boolean][] = [
    ["login/finalize", "POST", "/login/finalize", false],
    ["registration/finalize", "POST", "/registration/finalize", false],
    ["registration/initialize", "POST", "/registration/initialize", true],
    ["transaction/finalize", "POST", "/transaction/finalize", true],
    ["PATCH credentials", "PATCH", "/credentials/abc", true],
  ];

  it.each(targets)(
    "%s: malformed JSON 400, non-JSON 415, over 64 KiB 413",
    async (_name, method, path, keyed) => {
      const t = await setupTenant();
      const apiKey = keyed ? t.keys.passkey : undefined;
      const before = await snapshot(t.tenant.id);
      const cases: [number, PasskeyRequest, string | RegExp][] = [
        [400, { body: "{", headers: { "content-type": "application/json" } }, "not valid JSON"],
        [400, { body: '{"a":1}garbage', headers: { "content-type": "application/json" } }, "not valid JSON"],
        [400, { body: "null" }, /^Bad Request body: /],
        [400, { body: "[]" }, /^Bad Request body: /],
        [400, { body: '"text"' }, /^Bad Request body: /],
        [
          415,
          { body: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } },
          "Content-Type",
        ],
        [415, { body: '{"a":1}', headers: { "content-type": "text/plain" } }, "Content-Type"],
        [
          415,
          { body: '{"a":1}', headers: { "content-type": "multipart/form-data; boundary=x" } },
          "Content-Type",
        ],
        [413, { body: JSON.stringify({ pad: "x".repeat(64 * 1024) }) }, "65536"],
        [413, { body: "[" + "1,".repeat(40_000) + "1]" }, "65536"],
      ];
      for (const [status, request, title] of cases) {
        const res = await passkeyRequest(t.tenant.id, method, path, {
          ...request,
          ...(apiKey ? { apiKey } : {}),
        });
        const error = await expectPasskeyError(res, status);
        expect(
          [...error.title, ...error.details].join(" "),
          `${status}: ${String(request.body).slice(0, 20)}`,
        ).toMatch(title);
      }
      expect(await snapshot(t.tenant.id)).toEqual(before);
    },
  );

  it("refuses a body whose declared Content-Length is over 64 KiB before reading it", async () => {
    const t = await setupTenant();
    const res = await passkeyRequest(t.tenant.id, "POST", "/login/finalize", {
      body: "{}",
      headers: { "content-length": String(64 * 1024 + 1) },
    });
    await expectPasskeyError(res, 413);
  });

  it("accepts JSON content types with parameters and +json suffixes", async () => {
    const t = await setupTenant();
    for (const type of ["application/json; charset=utf-8", "application/vnd.api+json", "APPLICATION/JSON"]) {
      const res = await passkeyRequest(t.tenant.id, "POST", "/login/initialize", {
        body: "{}",
        headers: { "content-type": type },
      });
      expect(res.status, type).toBe(200);
    }
  });

  it("starts a discoverable login on an empty body, without a key", async () => {
    const t = await setupTenant();
    for (const request of [{}, { body: "" }, { body: "{}" }, { body: "  " }] as PasskeyRequest[]) {
      const res = await passkeyRequest(t.tenant.id, "POST", "/login/initialize", request);
      expect(res.status, JSON.stringify(request)).toBe(200);
      const { publicKey } = await res.json();
      expect(publicKey.allowCredentials ?? []).toEqual([]);
      expect(publicKey.rpId).toBe("localhost");
    }
    expect(await challengeCount(t.tenant.id)).toBe(4);
  });

  it("answers an empty body on routes that need one with 400 naming the required fields", async () => {
    const t = await setupTenant();
    const before = await snapshot(t.tenant.id);
    const expectations: [Method, string, string[]][] = [
      ["POST", "/registration/initialize", ["body.user_id", "body.username"]],
      ["POST", "/mfa/registration/initialize", ["body.user_id", "body.username"]],
      ["POST", "/mfa/login/initialize", ["body.user_id"]],
      ["POST", "/transaction/initialize", ["body.user_id", "body.transaction_id", "body.transaction_data"]],
      ["POST", "/login/finalize", ["body.id", "body.rawId", "body.response"]],
      ["POST", "/registration/finalize", ["body.id", "body.rawId", "body.response"]],
      ["PATCH", "/credentials/abc", ["body.name"]],
    ];
    for (const [method, path, fields] of expectations) {
      const res = await passkeyRequest(t.tenant.id, method, path, { apiKey: t.keys.passkey });
      const error = await expectPasskeyError(res, 400, { title: "Bad Request" });
      for (const field of fields) {
        expect(
          error.details.some((d) => d.startsWith(`${field}:`)),
          `${path}: ${field} in ${error.details}`,
        ).toBe(true);
      }
    }
    expect(await snapshot(t.tenant.id)).toEqual(before);
  });
});

describe("Passkey API CORS", () => {
  const preflight = (t: TestTenant, origin: string, path = "/login/initialize") =>
    passkeyRequest(t.tenant.id, "OPTIONS", path, {
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,apikey",
      },
    });

  it("answers a preflight from a tenant origin with that origin, the methods and the asked headers", async () => {
    const t = await setupTenant();
    for (const path of ["/login/initialize", "/login/finalize", "/registration/finalize"]) {
      const res = await preflight(t, ORIGIN, path);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(res.headers.get("access-control-allow-methods")?.split(/,\s*/)).toEqual(["POST", "OPTIONS"]);
      expect(res.headers.get("access-control-allow-headers")).toBe("content-type,apikey");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toMatch(/Origin/);
    }
  });

  it("allows no other origin, in preflights or actual requests", async () => {
    const t = await setupTenant();
    for (const origin of [
      "https://evil.example",
      "http://localhost:3001",
      "https://localhost:3000",
      "null",
    ]) {
      const res = await preflight(t, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin"), origin).toBeNull();
      expect(res.headers.get("access-control-allow-methods")).toBeNull();
      expect(res.headers.get("access-control-allow-headers")).toBeNull();

      const post = await passkeyRequest(t.tenant.id, "POST", "/login/initialize", { headers: { origin } });
      expect(post.status).toBe(200);
      expect(post.headers.get("access-control-allow-origin"), origin).toBeNull();
      expect(post.headers.get("vary")).toMatch(/Origin/);
    }
  });

  it("does not echo request headers that are not header names", async () => {
    const t = await setupTenant();
    const res = await passkeyRequest(t.tenant.id, "OPTIONS", "/login/initialize", {
      headers: { origin: ORIGIN, "access-control-request-headers": "content-type, x(y)" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-headers")).toBeNull();
  });

  it("puts the allowed origin on browser routes' responses, errors included, and on no key-only route", async () => {
    const t = await setupTenant();
    const ok = await passkeyRequest(t.tenant.id, "POST", "/login/initialize", {
      headers: { origin: ORIGIN },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(ok.headers.get("access-control-expose-headers")).toMatch(/X-Request-Id/i);

    const failed = await passkeyRequest(t.tenant.id, "POST", "/login/finalize", {
      body: "{",
      headers: { origin: ORIGIN, "content-type": "application/json" },
    });
    await expectPasskeyError(failed, 400);
    expect(failed.headers.get("access-control-allow-origin")).toBe(ORIGIN);

    for (const [method, path, body] of [
      ["POST", "/registration/initialize", { user_id: "u", username: "u" }],
      ["POST", "/mfa/login/initialize", { user_id: "u" }],
      ["GET", "/credentials?user_id=u", undefined],
    ] as const) {
      const res = await passkeyRequest(t.tenant.id, method, path, {
        apiKey: t.keys.passkey,
        body,
        headers: { origin: ORIGIN },
      });
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
    }
  });

  it("serves the JWKS to any origin", async () => {
    const t = await setupTenant();
    const res = await passkeyRequest(t.tenant.id, "GET", "/.well-known/jwks.json", {
      headers: { origin: "https://anywhere.example" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
