import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/thirdparty/providers/route";
import * as item from "@/app/(admin-api)/t/[tenantId]/admin/thirdparty/providers/[slug]/route";
import * as config from "@/app/(public-api)/t/[tenantId]/.well-known/config/route";
import { executor } from "@/lib/db";
import { thirdPartyProviders } from "@/lib/db/schema";
import { listIdentities } from "@/lib/identities";
import { signInWithIdentity } from "@/lib/accounts";
import { configureWebhooks } from "@/lib/webhooks";
import { adminCall, expectPlatformError as expectError } from "@/tests/helpers/admin-api";
import { call } from "@/tests/helpers/http";
import { auditEvents } from "@/tests/helpers/passkey-security";
import { createTestTenant } from "@/tests/helpers/tenants";

const SECRET = "super-secret-client-secret-value";
const base = (tenantId: string) => `/t/${tenantId}/admin/thirdparty/providers`;

afterEach(() => configureWebhooks(undefined));

const create = (tenantId: string, key: string | undefined, body: unknown) =>
  adminCall(collection.POST, base(tenantId), key, { method: "POST", params: { tenantId }, body });
const list = (tenantId: string, key: string) =>
  adminCall(collection.GET, base(tenantId), key, { params: { tenantId } });
const get = (tenantId: string, key: string, slug: string) =>
  adminCall(item.GET, `${base(tenantId)}/${slug}`, key, { params: { tenantId, slug } });
const patch = (tenantId: string, key: string, slug: string, body: unknown) =>
  adminCall(item.PATCH, `${base(tenantId)}/${slug}`, key, {
    method: "PATCH",
    params: { tenantId, slug },
    body,
  });
const remove = (tenantId: string, key: string, slug: string) =>
  adminCall(item.DELETE, `${base(tenantId)}/${slug}`, key, { method: "DELETE", params: { tenantId, slug } });

/** A platform error: status, `{code, message}`. */
async function rows(tenantId: string) {
  const db = await executor();
  return db.select().from(thirdPartyProviders).where(eq(thirdPartyProviders.tenantId, tenantId));
}

describe("admin third-party providers", () => {
  it("configures, lists, reads, changes and removes a provider; the secret is sealed and never shown", async () => {
    const { tenant, keys } = await createTestTenant();
    const res = await create(tenant.id, keys.admin, {
      kind: "google",
      client_id: "google-client",
      client_secret: SECRET,
      allowed_redirect_urls: ["https://app.example.com/auth"],
      allow_linking: true,
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      slug: "google",
      kind: "google",
      display_name: "Google",
      enabled: true,
      client_id: "google-client",
      has_client_secret: true,
      scopes: [],
      options: {},
      allowed_redirect_urls: ["https://app.example.com/auth"],
      allow_linking: true,
      store_tokens: false,
      redirect_url: `http://localhost:3000/t/${tenant.id}/thirdparty/callback`,
    });
    const [row] = await rows(tenant.id);
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(row!.clientSecretSealed).not.toContain(SECRET);

    for (const answer of [await list(tenant.id, keys.admin), await get(tenant.id, keys.admin, "google")]) {
      const body = await answer.text();
      expect(answer.status).toBe(200);
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(row!.clientSecretSealed!);
    }

    const changed = await patch(tenant.id, keys.admin, "google", {
      display_name: "Google Workspace",
      scopes: ["openid", "email"],
      enabled: false,
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await changed.json()).toMatchObject({
      display_name: "Google Workspace",
      scopes: ["openid", "email"],
      enabled: false,
      has_client_secret: true,
    });
    // The secret stays unless given.
    expect((await rows(tenant.id))[0]!.clientSecretSealed).toBe(row!.clientSecretSealed);

    expect((await remove(tenant.id, keys.admin, "google")).status).toBe(204);
    await expectError(await get(tenant.id, keys.admin, "google"), 404);
    await expectError(await remove(tenant.id, keys.admin, "google"), 404);
    const types = [
      ...(await auditEvents(tenant.id, "thirdparty.provider.created")),
      ...(await auditEvents(tenant.id, "thirdparty.provider.updated")),
      ...(await auditEvents(tenant.id, "thirdparty.provider.deleted")),
    ].map((event) => event.actor);
    expect(types).toHaveLength(3);
    for (const actor of types) expect(actor).toMatch(/^api_key:/);
  });

  it("lists enabled providers in /.well-known/config", async () => {
    const { tenant, keys } = await createTestTenant();
    await create(tenant.id, keys.admin, { kind: "github", client_id: "gh", client_secret: SECRET });
    configureWebhooks({ allowPrivate: false });
    await create(tenant.id, keys.admin, {
      kind: "oidc",
      slug: "acme",
      display_name: "Acme",
      client_id: "acme",
      client_secret: SECRET,
      options: { issuer: "https://idp.acme.example" },
    });
    await create(tenant.id, keys.admin, {
      kind: "google",
      client_id: "g",
      client_secret: SECRET,
      enabled: false,
    });
    const res = await call(config.GET, `/t/${tenant.id}/.well-known/config`, {
      params: { tenantId: tenant.id },
    });
    expect((await res.json()).providers).toEqual(["github", "acme"]);
  });

  it("configures custom providers and Apple (key sealed)", async () => {
    const { tenant, keys } = await createTestTenant();
    const oauth2 = await create(tenant.id, keys.admin, {
      kind: "oauth2",
      slug: "hub",
      client_id: "hub",
      client_secret: SECRET,
      options: {
        authorization_endpoint: "https://hub.example/authorize",
        token_endpoint: "https://hub.example/token",
        userinfo_endpoint: "https://hub.example/me",
        mapping: { sub: "id", email: "mail", email_verified: "mail_ok" },
      },
    });
    expect(oauth2.status, await oauth2.clone().text()).toBe(201);
    expect((await oauth2.json()).options.mapping).toEqual({
      sub: "id",
      email: "mail",
      email_verified: "mail_ok",
      name: "name",
    });

    const pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const apple = await create(tenant.id, keys.admin, {
      kind: "apple",
      client_id: "com.example.web",
      apple_private_key: pem,
      options: { team_id: "TEAM123456", key_id: "KEY1234567" },
    });
    const text = await apple.text();
    expect(apple.status, text).toBe(201);
    expect(text).not.toContain("PRIVATE KEY");
    expect(JSON.parse(text).options).toEqual({
      team_id: "TEAM123456",
      key_id: "KEY1234567",
      has_apple_private_key: true,
    });

    // Deleting a custom provider deletes its identities: a later provider named `hub` (another issuer)
    // must not sign these users in. A built-in's identities stay (its subjects are the same provider's).
    const account = (providerId: string) => ({
      kind: "oauth" as const,
      providerId,
      subject: "42",
      email: `${providerId}.${Date.now()}@example.com`,
      emailVerified: true,
      claims: {},
    });
    const hubUser = await signInWithIdentity(tenant, account("hub"), { allowLinking: false }, {});
    const appleUser = await signInWithIdentity(tenant, account("apple"), { allowLinking: false }, {});
    expect((await remove(tenant.id, keys.admin, "hub")).status).toBe(204);
    expect((await remove(tenant.id, keys.admin, "apple")).status).toBe(204);
    expect(await listIdentities(tenant.id, hubUser.user.id)).toEqual([]);
    expect(await listIdentities(tenant.id, appleUser.user.id)).toHaveLength(1);
  });

  it("answers bad input in the platform shape and changes nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const bad: [unknown, RegExp?][] = [
      [{}],
      [{ kind: "myspace", client_id: "x", client_secret: SECRET }],
      [{ kind: "google", client_id: "x" }, /clientSecret/],
      [{ kind: "oidc", client_id: "x", client_secret: SECRET }, /slug/],
      [{ kind: "oidc", slug: "acme", client_id: "x", client_secret: SECRET }, /issuer/],
      // A slug always means one provider: built-ins are named by their kind, custom ones never take that name.
      [
        { kind: "google", slug: "work", client_id: "x", client_secret: SECRET },
        /a google provider is named google/,
      ],
      [
        {
          kind: "oidc",
          slug: "google",
          client_id: "x",
          client_secret: SECRET,
          options: { issuer: "https://a.example" },
        },
        /name of a built-in provider/,
      ],
      [
        {
          kind: "oidc",
          slug: "Bad Slug",
          client_id: "x",
          client_secret: SECRET,
          options: { issuer: "https://a.example" },
        },
      ],
      [
        {
          kind: "oidc",
          slug: "callback",
          client_id: "x",
          client_secret: SECRET,
          options: { issuer: "https://a.example" },
        },
      ],
      [
        {
          kind: "oauth2",
          slug: "hub",
          client_id: "x",
          client_secret: SECRET,
          options: { authorization_endpoint: "https://a.example/a" },
        },
      ],
      // SSRF guard: http and private addresses are refused without the development switch.
      [
        {
          kind: "oidc",
          slug: "acme",
          client_id: "x",
          client_secret: SECRET,
          options: { issuer: "http://127.0.0.1:9/" },
        },
      ],
      [
        {
          kind: "oidc",
          slug: "acme",
          client_id: "x",
          client_secret: SECRET,
          options: { issuer: "file:///etc/passwd" },
        },
      ],
      [
        {
          kind: "google",
          client_id: "x",
          client_secret: SECRET,
          allowed_redirect_urls: ["javascript:alert(1)"],
        },
      ],
      [{ kind: "google", client_id: "x", client_secret: SECRET, unknown: true }],
      [
        {
          kind: "apple",
          client_id: "x",
          apple_private_key: "not a key",
          options: { team_id: "T", key_id: "K" },
        },
      ],
      [{ kind: "github", client_id: "x", client_secret: SECRET, options: { directory: "common" } }],
    ];
    configureWebhooks({ allowPrivate: false });
    for (const [body, message] of bad)
      await expectError(await create(tenant.id, keys.admin, body), 400, message);
    expect(await rows(tenant.id)).toEqual([]);

    expect(
      (await create(tenant.id, keys.admin, { kind: "google", client_id: "x", client_secret: SECRET })).status,
    ).toBe(201);
    await expectError(
      await create(tenant.id, keys.admin, { kind: "google", client_id: "y", client_secret: SECRET }),
      409,
    );
    const before = await rows(tenant.id);
    await expectError(await patch(tenant.id, keys.admin, "google", { enabled: "yes" }), 400);
    await expectError(
      await patch(tenant.id, keys.admin, "google", { client_secret: null }),
      400,
      /clientSecret/,
    );
    await expectError(await patch(tenant.id, keys.admin, "google", { kind: "github" }), 400);
    await expectError(await patch(tenant.id, keys.admin, "nope", { enabled: true }), 404);
    expect(await rows(tenant.id)).toEqual(before);
  });

  it("needs the tenant's admin key; another tenant's provider is 404", async () => {
    const { tenant, keys } = await createTestTenant();
    const other = await createTestTenant();
    await create(tenant.id, keys.admin, { kind: "google", client_id: "x", client_secret: SECRET });
    await expectError(
      await create(tenant.id, undefined, { kind: "github", client_id: "x", client_secret: SECRET }),
      401,
    );
    await expectError(
      await create(tenant.id, other.keys.admin, { kind: "github", client_id: "x", client_secret: SECRET }),
      401,
    );
    await expectError(await get(other.tenant.id, other.keys.admin, "google"), 404);
    await expectError(await remove(other.tenant.id, other.keys.admin, "google"), 404);
    expect(await rows(tenant.id)).toHaveLength(1);
  });
});

describe("admin third-party providers: Microsoft", () => {
  it("needs a directory id (or consumers): the multi-tenant endpoints are refused", async () => {
    const { tenant, keys } = await createTestTenant();
    for (const options of [{}, { directory: "common" }, { directory: "organizations" }]) {
      await expectError(
        await create(tenant.id, keys.admin, {
          kind: "microsoft",
          client_id: "x",
          client_secret: SECRET,
          options,
        }),
        400,
        /directory/,
      );
    }
    const res = await create(tenant.id, keys.admin, {
      kind: "microsoft",
      client_id: "x",
      client_secret: SECRET,
      options: { directory: "72f988bf-86f1-41af-91ab-2d7cd011db47" },
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
