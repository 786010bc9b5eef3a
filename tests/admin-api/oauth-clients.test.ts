import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/oauth/clients/route";
import * as item from "@/app/(admin-api)/t/[tenantId]/admin/oauth/clients/[clientId]/route";
import * as secretRoute from "@/app/(admin-api)/t/[tenantId]/admin/oauth/clients/[clientId]/secret/route";
import { listAuditEvents } from "@/lib/audit";
import { adminCall, expectPlatformError as expectError } from "@/tests/helpers/admin-api";
import { createTestTenant } from "@/tests/helpers/tenants";
import { discover, signIn, setUp } from "@/tests/helpers/openid";
import { configureWebhooks } from "@/lib/webhooks";
import { startFakeDns, type FakeDns } from "@/tests/admin-api/webhooks-dns";

// Back-channel logout URIs are resolved when saved (the webhooks' SSRF guard): names answer from a fake
// DNS server, never the network's.
let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
  dns.answer("grafana.example.com", ["93.184.215.14"]);
  dns.answer("internal.example.com", ["93.184.215.14", "10.1.2.3"]);
  dns.answer("metadata.example.com", ["169.254.169.254"]);
});
afterAll(() => dns.close());
beforeEach(() => configureWebhooks({ dnsServers: [dns.server], allowPrivate: false }));
afterEach(() => configureWebhooks(undefined));

const base = (tenantId: string) => `/t/${tenantId}/admin/oauth/clients`;

const create = (tenantId: string, key: string | undefined, body: unknown) =>
  adminCall(collection.POST, base(tenantId), key, { method: "POST", params: { tenantId }, body });
const list = (tenantId: string, key: string | undefined, query = "") =>
  adminCall(collection.GET, `${base(tenantId)}${query}`, key, { params: { tenantId } });
const get = (tenantId: string, clientId: string, key: string | undefined) =>
  adminCall(item.GET, `${base(tenantId)}/${clientId}`, key, { params: { tenantId, clientId } });
const patch = (tenantId: string, clientId: string, key: string | undefined, body: unknown) =>
  adminCall(item.PATCH, `${base(tenantId)}/${clientId}`, key, {
    method: "PATCH",
    params: { tenantId, clientId },
    body,
  });
const remove = (tenantId: string, clientId: string, key: string | undefined) =>
  adminCall(item.DELETE, `${base(tenantId)}/${clientId}`, key, {
    method: "DELETE",
    params: { tenantId, clientId },
  });
const rotate = (tenantId: string, clientId: string, key: string | undefined) =>
  adminCall(secretRoute.POST, `${base(tenantId)}/${clientId}/secret`, key, {
    method: "POST",
    params: { tenantId, clientId },
  });

const GRAFANA = {
  client_name: "Grafana",
  redirect_uris: ["https://grafana.example.com/login/generic_oauth"],
  grant_types: ["authorization_code", "refresh_token"],
};

async function created(tenantId: string, key: string, body: unknown = GRAFANA) {
  const res = await create(tenantId, key, body);
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return JSON.parse(text) as Record<string, unknown> & { client_id: string; client_secret?: string };
}

describe("admin OAuth clients", () => {
  it("creates (secret shown once), lists, reads, changes and deletes a client, audited with the key", async () => {
    const { tenant, keys } = await createTestTenant();
    const body = await created(tenant.id, keys.admin, { ...GRAFANA, first_party: true });
    expect(body).toEqual({
      client_id: expect.stringMatching(/^client_[0-9a-f]{32}$/),
      client_name: "Grafana",
      application_type: "web",
      first_party: true,
      token_endpoint_auth_method: "client_secret_basic",
      redirect_uris: GRAFANA.redirect_uris,
      post_logout_redirect_uris: [],
      grant_types: GRAFANA.grant_types,
      scope: null,
      backchannel_logout_uri: null,
      resources: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    const { client_secret: secret, ...shown } = body;
    const read = await get(tenant.id, body.client_id, keys.admin);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(shown);
    expect(JSON.stringify(shown)).not.toContain(secret!);

    const listed = await list(tenant.id, keys.admin);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect(await listed.json()).toEqual([shown]);

    const changed = await patch(tenant.id, body.client_id, keys.admin, {
      client_name: "Grafana (prod)",
      scope: "openid email",
      post_logout_redirect_uris: ["https://grafana.example.com/"],
      backchannel_logout_uri: "https://grafana.example.com/backchannel",
      first_party: false,
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await changed.json()).toMatchObject({
      client_name: "Grafana (prod)",
      scope: "openid email",
      post_logout_redirect_uris: ["https://grafana.example.com/"],
      backchannel_logout_uri: "https://grafana.example.com/backchannel",
      first_party: false,
      redirect_uris: GRAFANA.redirect_uris,
      grant_types: GRAFANA.grant_types,
    });
    // null removes an optional field; what is left out stays.
    const cleared = await patch(tenant.id, body.client_id, keys.admin, {
      scope: null,
      backchannel_logout_uri: null,
    });
    expect(await cleared.json()).toMatchObject({
      client_name: "Grafana (prod)",
      scope: null,
      backchannel_logout_uri: null,
    });

    expect((await remove(tenant.id, body.client_id, keys.admin)).status).toBe(204);
    await expectError(await get(tenant.id, body.client_id, keys.admin), 404);
    await expectError(await remove(tenant.id, body.client_id, keys.admin), 404);

    const events = (await listAuditEvents(tenant.id, { limit: 100 })).items.filter((event) =>
      event.type.startsWith("oauth.client."),
    );
    expect(events.map((event) => event.type).sort()).toEqual([
      "oauth.client.created",
      "oauth.client.deleted",
      "oauth.client.updated",
      "oauth.client.updated",
    ]);
    for (const event of events) expect(event.actor).toMatch(/^api_key:/);
    expect(JSON.stringify(events)).not.toContain(secret!);
  });

  it("creates a public client without a secret, and refuses to rotate one for it", async () => {
    const { tenant, keys } = await createTestTenant();
    const body = await created(tenant.id, keys.admin, {
      client_name: "Mobile app",
      application_type: "native",
      redirect_uris: ["http://127.0.0.1:5173/callback", "com.example.app:/callback"],
      token_endpoint_auth_method: "none",
    });
    expect(body.application_type).toBe("native");
    expect(body.client_secret).toBeUndefined();
    expect(body.token_endpoint_auth_method).toBe("none");
    await expectError(await rotate(tenant.id, body.client_id, keys.admin), 400, /public client/);
    await expectError(
      await patch(tenant.id, body.client_id, keys.admin, {
        token_endpoint_auth_method: "client_secret_post",
      }),
      400,
      /public client cannot become confidential/,
    );
  });

  it("pages the list with X-Total-Count and Link", async () => {
    const { tenant, keys } = await createTestTenant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await created(tenant.id, keys.admin, { ...GRAFANA, client_name: `App ${i}` })).client_id);
    }
    const first = await list(tenant.id, keys.admin, "?page=1&per_page=2");
    expect(first.headers.get("x-total-count")).toBe("3");
    expect(first.headers.get("link")).toContain('rel="next"');
    expect(((await first.json()) as { client_id: string }[]).map((c) => c.client_id)).toEqual(
      ids.slice(0, 2),
    );
    const second = await list(tenant.id, keys.admin, "?page=2&per_page=2");
    expect(((await second.json()) as { client_id: string }[]).map((c) => c.client_id)).toEqual(ids.slice(2));
    await expectError(await list(tenant.id, keys.admin, "?per_page=101"), 400, /per_page/);
    await expectError(await list(tenant.id, keys.admin, "?page=0"), 400, /page/);
    await expectError(await list(tenant.id, keys.admin, "?page=x"), 400, /page/);
  });

  it("rotates the secret: the new one authenticates at the token endpoint, the old one no longer", async () => {
    const { tenant, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
    const other = await createTestTenant();
    const setup = await setUp({ tenant });
    const admin = keys.admin;
    const res = await rotate(tenant.id, setup.rp.clientId, admin);
    expect(res.status).toBe(200);
    const { client_id, client_secret } = (await res.json()) as { client_id: string; client_secret: string };
    expect(client_id).toBe(setup.rp.clientId);
    expect(client_secret).not.toBe(setup.secret);
    // The old secret: invalid_client.
    await expect(signIn(setup)).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: "invalid_client" } }],
    });
    const config = await discover(tenant, client_id, client_secret);
    const tokens = await signIn({ ...setup, config });
    expect(tokens.access_token).toBeTruthy();
    await expectError(await rotate(tenant.id, client_id, other.keys.admin), 401);
    const types = (await listAuditEvents(tenant.id, { limit: 100 })).items.map((event) => event.type);
    expect(types).toContain("oauth.client.secret_rotated");
  });

  it("a deleted client's tokens stop working", async () => {
    const { tenant, keys } = await createTestTenant({ signingAlgorithm: "ES256" });
    const setup = await setUp({ tenant });
    const tokens = await signIn(setup);
    const admin = keys.admin;
    expect((await remove(setup.tenant.id, setup.rp.clientId, admin)).status).toBe(204);
    await expect(
      client.fetchUserInfo(setup.config, tokens.access_token, client.skipSubjectCheck),
    ).rejects.toBeDefined();
  });

  it("refuses bad input with 400 and a message, never 500, and changes nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const cases: [unknown, RegExp][] = [
      [{ ...GRAFANA, redirect_uris: ["http://app.example/cb"] }, /http only on loopback/],
      [{ ...GRAFANA, redirect_uris: ["https://app.example/cb#x"] }, /fragment/],
      [{ ...GRAFANA, redirect_uris: ["not a url"] }, /absolute URL/],
      [{ ...GRAFANA, redirect_uris: "https://app.example/cb" }, /redirect_uris/],
      [{ ...GRAFANA, redirect_uris: [] }, /redirect_uris/],
      [{ ...GRAFANA, post_logout_redirect_uris: ["http://app.example/"] }, /http only on loopback/],
      [{ ...GRAFANA, grant_types: ["implicit"] }, /grant_types/],
      [{ ...GRAFANA, grant_types: [] }, /grant_types/],
      [{ ...GRAFANA, token_endpoint_auth_method: "private_key_jwt" }, /token_endpoint_auth_method/],
      [{ ...GRAFANA, scope: "openid admin" }, /scope/],
      [{ ...GRAFANA, backchannel_logout_uri: "not a url" }, /backchannel_logout_uri/],
      [{ ...GRAFANA, resources: ["nope"] }, /resources/],
      [{ ...GRAFANA, client_name: "" }, /client_name/],
      [{ ...GRAFANA, application_type: "desktop" }, /application_type/],
      [{ ...GRAFANA, redirect_uris: ["com.example.app:/callback"] }, /redirect_uris/],
      [{ ...GRAFANA, client_name: 7 }, /client_name/],
      [{ ...GRAFANA, first_party: "yes" }, /first_party/],
      [{ client_name: "No redirect" }, /redirect_uris/],
      [[1, 2], /./],
      ["text", /./],
    ];
    for (const [body, detail] of cases) {
      await expectError(await create(tenant.id, keys.admin, body), 400, detail);
    }
    const raw = await adminCall(collection.POST, base(tenant.id), keys.admin, {
      method: "POST",
      params: { tenantId: tenant.id },
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    await expectError(raw, 400);
    expect((await list(tenant.id, keys.admin)).headers.get("x-total-count")).toBe("0");

    const { client_id } = await created(tenant.id, keys.admin);
    for (const [body, detail] of [
      [{ redirect_uris: ["http://app.example/cb"] }, /http only on loopback/],
      [{ redirect_uris: null }, /redirect_uris/],
      [{ grant_types: ["password"] }, /grant_types/],
      [{ scope: "openid admin" }, /scope/],
      [{ first_party: null }, /first_party/],
    ] as const) {
      await expectError(await patch(tenant.id, client_id, keys.admin, body), 400, detail);
    }
    expect(await (await get(tenant.id, client_id, keys.admin)).json()).toMatchObject({
      redirect_uris: GRAFANA.redirect_uris,
      scope: null,
    });
    for (const id of ["x".repeat(129), "a b", "é"]) {
      await expectError(await get(tenant.id, encodeURIComponent(id), keys.admin), 400, /clientId/);
    }
    await expectError(await get(tenant.id, "client_unknown", keys.admin), 404);
    await expectError(await patch(tenant.id, "client_unknown", keys.admin, { client_name: "x" }), 404);
    await expectError(await rotate(tenant.id, "client_unknown", keys.admin), 404);
  });

  it("refuses a back-channel logout URI the server may not call (webhooks' SSRF policy), storing nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const refused: [string, RegExp][] = [
      ["https://10.0.0.7/bc", /10\.0\.0\.7 resolves to 10\.0\.0\.7, a private/],
      ["https://192.168.1.1/bc", /private, loopback, link-local/],
      ["https://127.0.0.1:8443/bc", /private, loopback, link-local/],
      ["https://localhost/bc", /private, loopback, link-local/],
      ["https://[::1]/bc", /private, loopback, link-local/],
      ["https://169.254.169.254/latest/meta-data", /private, loopback, link-local/],
      ["https://[fd00:ec2::254]/", /private, loopback, link-local/],
      ["https://100.64.0.1/bc", /private, loopback, link-local/],
      ["https://internal.example.com/bc", /internal\.example\.com resolves to 10\.1\.2\.3/],
      ["https://nowhere.example.com/bc", /does not resolve/],
      ["http://93.184.215.14/bc", /must be an https URL/],
      ["http://localhost:4000/bc", /must be an https URL/],
      ["ftp://93.184.215.14/bc", /backchannel_logout_uri/],
      ["https://93.184.215.14/b c", /spaces or control characters/],
      ["not a url", /backchannel_logout_uri/],
      ["", /backchannel_logout_uri/],
    ];
    for (const [uri, message] of refused) {
      const res = await create(tenant.id, keys.admin, { ...GRAFANA, backchannel_logout_uri: uri });
      await expectError(res, 400, message);
    }
    expect((await list(tenant.id, keys.admin)).headers.get("x-total-count")).toBe("0");

    // A public address (literal or resolved) is kept; a change is checked as a creation is.
    const ok = await created(tenant.id, keys.admin, {
      ...GRAFANA,
      backchannel_logout_uri: "https://93.184.215.14/bc",
    });
    const named = await created(tenant.id, keys.admin, {
      ...GRAFANA,
      backchannel_logout_uri: "https://grafana.example.com/backchannel",
    });
    expect(named.backchannel_logout_uri).toBe("https://grafana.example.com/backchannel");
    for (const [uri, message] of refused) {
      const res = await patch(tenant.id, ok.client_id, keys.admin, { backchannel_logout_uri: uri });
      await expectError(res, 400, message);
    }
    expect(await (await get(tenant.id, ok.client_id, keys.admin)).json()).toMatchObject({
      backchannel_logout_uri: "https://93.184.215.14/bc",
    });
    const events = (await listAuditEvents(tenant.id, { limit: 100 })).items;
    expect(events.filter((event) => event.type === "oauth.client.created")).toHaveLength(2);
    expect(events.filter((event) => event.type === "oauth.client.updated")).toHaveLength(0);
  });

  it("allows http to localhost and private addresses with SESAME_WEBHOOKS_ALLOW_PRIVATE, metadata never", async () => {
    const { tenant, keys } = await createTestTenant();
    configureWebhooks({ dnsServers: [dns.server], allowPrivate: true });
    const local = await created(tenant.id, keys.admin, {
      ...GRAFANA,
      backchannel_logout_uri: "http://127.0.0.1:4000/bc",
    });
    expect(local.backchannel_logout_uri).toBe("http://127.0.0.1:4000/bc");
    await created(tenant.id, keys.admin, { ...GRAFANA, backchannel_logout_uri: "https://10.0.0.7/bc" });
    for (const uri of ["https://169.254.169.254/latest", "https://metadata.example.com/bc"]) {
      const res = await create(tenant.id, keys.admin, { ...GRAFANA, backchannel_logout_uri: uri });
      await expectError(res, 400, /backchannel_logout_uri: .*169\.254\.169\.254/);
    }
    expect((await list(tenant.id, keys.admin)).headers.get("x-total-count")).toBe("2");
    // The setting off again: a change that leaves the URI as it is is not resolved again (deliveries
    // check it every time); a new URI is.
    configureWebhooks({ dnsServers: [dns.server], allowPrivate: false });
    const renamed = await patch(tenant.id, local.client_id, keys.admin, { client_name: "Renamed" });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const moved = await patch(tenant.id, local.client_id, keys.admin, {
      backchannel_logout_uri: "http://127.0.0.1:4001/bc",
    });
    await expectError(moved, 400, /backchannel_logout_uri: must be an https URL/);
  });

  it("refuses malformed redirect and post-logout redirect URIs with 400 and a message", async () => {
    const { tenant, keys } = await createTestTenant();
    for (const field of ["redirect_uris", "post_logout_redirect_uris"] as const) {
      const cases: [unknown, RegExp][] = [
        [[" https://app.example/cb"], /spaces or control characters/],
        [["https://app.example/c\nb"], /spaces or control characters/],
        [["https://app.example/c\tb"], /spaces or control characters/],
        [["https://user:pw@app.example/cb"], /user info/],
        [["javascript:alert(1)"], new RegExp(field)],
        [["data:text/html,hi"], new RegExp(field)],
        [["https://"], /absolute URL/],
        [["/relative/cb"], /absolute URL/],
        [[`https://app.example/${"a".repeat(2048)}`], new RegExp(field)],
        [[42], new RegExp(field)],
        [Array.from({ length: 21 }, (_, i) => `https://app.example/${i}`), new RegExp(field)],
      ];
      for (const [value, message] of cases) {
        await expectError(await create(tenant.id, keys.admin, { ...GRAFANA, [field]: value }), 400, message);
      }
    }
    expect((await list(tenant.id, keys.admin)).headers.get("x-total-count")).toBe("0");
  });

  it("answers 401 without a key, with another scope's key or another tenant's admin key", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    const { client_id } = await created(tenant.id, keys.admin);
    for (const key of [undefined, "not-a-key", keys.passkey, keys.authenticator, other.keys.admin]) {
      await expectError(await list(tenant.id, key), 401);
      await expectError(await create(tenant.id, key, GRAFANA), 401);
      await expectError(await get(tenant.id, client_id, key), 401);
      await expectError(await patch(tenant.id, client_id, key, { client_name: "x" }), 401);
      await expectError(await rotate(tenant.id, client_id, key), 401);
      await expectError(await remove(tenant.id, client_id, key), 401);
    }
    expect((await list(tenant.id, keys.admin)).headers.get("x-total-count")).toBe("1");
  });

  it("answers 404 for another tenant's client on every route, and changes nothing", async () => {
    const mine = await createTestTenant();
    const other = await createTestTenant();
    const { client_id } = await created(other.tenant.id, other.keys.admin);
    const [tenantId, key] = [mine.tenant.id, mine.keys.admin];
    await expectError(await get(tenantId, client_id, key), 404);
    await expectError(await patch(tenantId, client_id, key, { client_name: "stolen" }), 404);
    await expectError(await rotate(tenantId, client_id, key), 404);
    await expectError(await remove(tenantId, client_id, key), 404);
    expect(await (await list(tenantId, key)).json()).toEqual([]);
    const still = await get(other.tenant.id, client_id, other.keys.admin);
    expect(await still.json()).toMatchObject({ client_name: "Grafana" });
  });
});
