import { X509Certificate } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as collection from "@/app/(admin-api)/t/[tenantId]/admin/saml/providers/route";
import * as item from "@/app/(admin-api)/t/[tenantId]/admin/saml/providers/[providerId]/route";
import { asc, eq } from "drizzle-orm";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { webhookEvents } from "@/lib/db/schema";
import { configureWebhooks, createWebhook } from "@/lib/webhooks";
import { adminCall, expectPlatformError as expectError } from "@/tests/helpers/admin-api";
import { createTestIdp, type TestIdp } from "@/tests/helpers/saml-idp";
import { createTestTenant } from "@/tests/helpers/tenants";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = "00000000-0000-4000-8000-000000000000";

let idp: TestIdp;
let rolled: TestIdp;
let server: http.Server;
let metadataUrl: string;
/** What the loopback metadata server answers (switched to `rolled` to test a refresh). */
let served: () => string;

beforeAll(async () => {
  idp = await createTestIdp({ entityId: "https://idp.acme.test/metadata" });
  rolled = await createTestIdp({ entityId: "https://idp.acme.test/metadata" });
  served = () => idp.metadataXml;
  server = http.createServer((req, res) => {
    if (req.url === "/metadata") {
      res.writeHead(200, { "content-type": "application/samlmetadata+xml" }).end(served());
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  metadataUrl = `http://localhost:${(server.address() as AddressInfo).port}/metadata`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => configureWebhooks(undefined));

/** A PEM as the metadata parser writes it (64-character lines). */
const normalizePem = (pem: string) => {
  const body = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
};

const base = (tenantId: string) => `/t/${tenantId}/admin/saml/providers`;

const create = (tenantId: string, key: string | undefined, body: unknown) =>
  adminCall(collection.POST, base(tenantId), key, { method: "POST", params: { tenantId }, body });
const list = (tenantId: string, key: string) =>
  adminCall(collection.GET, base(tenantId), key, { params: { tenantId } });
const get = (tenantId: string, providerId: string, key: string) =>
  adminCall(item.GET, `${base(tenantId)}/${providerId}`, key, { params: { tenantId, providerId } });
const patch = (tenantId: string, providerId: string, key: string, body: unknown) =>
  adminCall(item.PATCH, `${base(tenantId)}/${providerId}`, key, {
    method: "PATCH",
    params: { tenantId, providerId },
    body,
  });
const remove = (tenantId: string, providerId: string, key: string) =>
  adminCall(item.DELETE, `${base(tenantId)}/${providerId}`, key, {
    method: "DELETE",
    params: { tenantId, providerId },
  });

async function count(tenantId: string, key: string) {
  return ((await (await list(tenantId, key)).json()) as unknown[]).length;
}

describe("admin SAML identity providers", () => {
  it("creates from XML, lists, reads, changes and deletes, audited", async () => {
    const { tenant, keys } = await createTestTenant();
    const res = await create(tenant.id, keys.admin, {
      name: "Acme Okta",
      domains: ["Acme.test", "acme.example"],
      metadata_xml: idp.metadataXml,
      attribute_mapping: { email: "user.email" },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      name: "Acme Okta",
      enabled: true,
      domains: ["acme.test", "acme.example"],
      metadata_url: null,
      entity_id: "https://idp.acme.test/metadata",
      sso_url: idp.ssoUrl,
      certificates: [expect.stringContaining("BEGIN CERTIFICATE")],
      pending_certificates: [],
      require_certificate_confirmation: false,
      attribute_mapping: { email: "user.email" },
      sign_requests: false,
      allow_linking: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await (await list(tenant.id, keys.admin)).json()).toEqual([created]);
    expect(await (await get(tenant.id, created.id, keys.admin)).json()).toEqual(created);

    const changed = await patch(tenant.id, created.id, keys.admin, {
      enabled: false,
      domains: ["acme.test"],
      sign_requests: true,
      allow_linking: false,
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      enabled: false,
      domains: ["acme.test"],
      sign_requests: true,
      allow_linking: false,
      attribute_mapping: { email: "user.email" },
    });

    expect((await remove(tenant.id, created.id, keys.admin)).status).toBe(204);
    await expectError(await get(tenant.id, created.id, keys.admin), 404);
    await expectError(await remove(tenant.id, created.id, keys.admin), 404);
    const types = (await listAuditEvents(tenant.id, { limit: 10 })).items.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining(["saml.provider.created", "saml.provider.updated", "saml.provider.deleted"]),
    );
  });

  it("fetches metadata by URL on loopback only with the development switch, and refreshes it", async () => {
    const { tenant, keys } = await createTestTenant();
    await expectError(
      await create(tenant.id, keys.admin, { name: "A", domains: ["a.test"], metadata_url: metadataUrl }),
      400,
    );
    configureWebhooks({ allowPrivate: true });
    const res = await create(tenant.id, keys.admin, {
      name: "A",
      domains: ["a.test"],
      metadata_url: metadataUrl,
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.metadata_url).toBe(metadataUrl);
    served = () => rolled.metadataXml;
    try {
      const refreshed = await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true });
      expect(refreshed.status).toBe(200);
      const body = await refreshed.json();
      expect(body.certificates).not.toEqual(created.certificates);
      // A refresh that now names another entity is refused and changes nothing: taking a new IdP under
      // the existing users' NameIDs needs its metadata given explicitly.
      const other = await createTestIdp({ entityId: "https://evil.test/metadata" });
      served = () => other.metadataXml;
      await expectError(await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true }), 400);
      const kept = await (await get(tenant.id, created.id, keys.admin)).json();
      expect(kept.entity_id).toBe("https://idp.acme.test/metadata");
      expect(kept.certificates).toEqual(body.certificates);
    } finally {
      served = () => idp.metadataXml;
    }
  });

  it("security 3.9: a refresh with new certificates is audited and fired as a webhook, and held for confirmation when asked", async () => {
    configureWebhooks({ allowPrivate: true });
    const { tenant, keys } = await createTestTenant();
    await createWebhook(
      tenant.id,
      { callback: "http://127.0.0.1:9/hooks", events: ["saml_provider"] },
      { actor: "test" },
    );
    const created = await (
      await create(tenant.id, keys.admin, { name: "A", domains: ["a.test"], metadata_url: metadataUrl })
    ).json();
    expect(created).toMatchObject({ require_certificate_confirmation: false, pending_certificates: [] });
    const third = await createTestIdp({ entityId: "https://idp.acme.test/metadata" });
    const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;
    const changes = async () =>
      (await listAuditEvents(tenant.id, { limit: 100, type: "saml.provider.certificates_changed" })).items;
    const fired = async () => {
      const db = await executor();
      return db
        .select({ event: webhookEvents.event, data: webhookEvents.data })
        .from(webhookEvents)
        .where(eq(webhookEvents.tenantId, tenant.id))
        .orderBy(asc(webhookEvents.createdAt));
    };
    try {
      // Without confirmation required: the new certificates are taken, and the change is told.
      served = () => rolled.metadataXml;
      const taken = await (await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true })).json();
      expect(taken.certificates).toEqual([rolled.keys.certificate].map(normalizePem));
      const expected = {
        idp_id: created.id,
        entity_id: "https://idp.acme.test/metadata",
        source: "refresh",
        pending: false,
        previous_fingerprints: [fingerprint(idp.keys.certificate)],
        new_fingerprints: [fingerprint(rolled.keys.certificate)],
      };
      expect((await changes())[0]?.details).toMatchObject(expected);
      expect(await fired()).toEqual([
        { event: "saml_provider.certificate_changed", data: expect.objectContaining(expected) },
      ]);
      // A refresh that brings the same certificates changes nothing and tells nothing.
      await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true });
      expect(await changes()).toHaveLength(1);

      // With confirmation required: held as pending, the old certificates still verify.
      const required = await patch(tenant.id, created.id, keys.admin, {
        require_certificate_confirmation: true,
      });
      expect(await required.json()).toMatchObject({ require_certificate_confirmation: true });
      served = () => third.metadataXml;
      const held = await (await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true })).json();
      expect(held.certificates).toEqual(taken.certificates);
      expect(held.pending_certificates).toEqual([normalizePem(third.keys.certificate)]);
      expect((await changes())[0]?.details).toMatchObject({ pending: true, source: "refresh" });
      expect((await fired()).at(-1)).toMatchObject({
        event: "saml_provider.certificate_changed",
        data: { pending: true, new_fingerprints: [fingerprint(third.keys.certificate)] },
      });
      expect((await (await get(tenant.id, created.id, keys.admin)).json()).certificates).toEqual(
        taken.certificates,
      );

      // Confirmed: taken, nothing pending; told again (source confirmation).
      const confirmed = await (
        await patch(tenant.id, created.id, keys.admin, { confirm_certificates: true })
      ).json();
      expect(confirmed.certificates).toEqual([normalizePem(third.keys.certificate)]);
      expect(confirmed.pending_certificates).toEqual([]);
      expect((await changes())[0]?.details).toMatchObject({ pending: false, source: "confirmation" });
      expect((await fired()).at(-1)).toMatchObject({ data: { source: "confirmation", pending: false } });
      // Nothing pending: nothing to confirm or reject.
      await expectError(await patch(tenant.id, created.id, keys.admin, { confirm_certificates: true }), 400);
      await expectError(await patch(tenant.id, created.id, keys.admin, { confirm_certificates: false }), 400);

      // Rejected: the pending certificates go, the current ones stay.
      served = () => rolled.metadataXml;
      await patch(tenant.id, created.id, keys.admin, { refresh_metadata: true });
      const rejected = await (
        await patch(tenant.id, created.id, keys.admin, { confirm_certificates: false })
      ).json();
      expect(rejected.certificates).toEqual(confirmed.certificates);
      expect(rejected.pending_certificates).toEqual([]);
      const types = (await listAuditEvents(tenant.id, { limit: 100 })).items.map((event) => event.type);
      expect(types).toContain("saml.provider.certificates_rejected");

      // Bad input: the right status, nothing changed.
      await expectError(await patch(tenant.id, created.id, keys.admin, { confirm_certificates: "yes" }), 400);
      await expectError(
        await patch(tenant.id, created.id, keys.admin, { require_certificate_confirmation: "on" }),
        400,
      );
      await expectError(
        await patch(tenant.id, created.id, keys.admin, {
          refresh_metadata: true,
          confirm_certificates: true,
        }),
        400,
      );
      const after = await (await get(tenant.id, created.id, keys.admin)).json();
      expect(after.certificates).toEqual(confirmed.certificates);
      expect(after.pending_certificates).toEqual([]);
    } finally {
      served = () => idp.metadataXml;
    }
  });

  it("refuses metadata URLs to private, link-local and metadata addresses", async () => {
    const { tenant, keys } = await createTestTenant();
    for (const url of [
      "https://127.0.0.1/metadata",
      "https://10.0.0.8/metadata",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/metadata",
      "http://idp.example.com/metadata",
      "ftp://idp.example.com/metadata",
    ]) {
      await expectError(
        await create(tenant.id, keys.admin, { name: "A", domains: ["a.test"], metadata_url: url }),
        400,
      );
    }
    // Even with the development switch, a cloud metadata address never passes.
    configureWebhooks({ allowPrivate: true });
    await expectError(
      await create(tenant.id, keys.admin, {
        name: "A",
        domains: ["a.test"],
        metadata_url: "https://169.254.169.254/latest/meta-data",
      }),
      400,
    );
    expect(await count(tenant.id, keys.admin)).toBe(0);
  });

  it("answers bad input with 400, taken domains with 409, and changes nothing", async () => {
    const { tenant, keys } = await createTestTenant();
    const good = { name: "A", domains: ["a.test"], metadata_xml: idp.metadataXml };
    const bad: unknown[] = [
      {},
      { ...good, name: "" },
      { ...good, domains: [] },
      { ...good, domains: ["not a domain"] },
      { ...good, domains: ["a.test", "A.test"] },
      { name: "A", domains: ["a.test"] },
      { ...good, metadata_url: metadataUrl },
      { ...good, metadata_xml: "<not-xml" },
      { ...good, metadata_xml: "<EntityDescriptor xmlns='urn:oasis:names:tc:SAML:2.0:metadata'/>" },
      {
        ...good,
        metadata_xml: idp.metadataXml.replace(/<ds:X509Certificate>[^<]+/g, "<ds:X509Certificate>"),
      },
      { ...good, attribute_mapping: { email: "" } },
      { ...good, attribute_mapping: { phone: "x" } },
      { ...good, unknown: true },
      { ...good, enabled: "yes" },
    ];
    for (const body of bad) await expectError(await create(tenant.id, keys.admin, body), 400);
    expect(await count(tenant.id, keys.admin)).toBe(0);

    const first = await (await create(tenant.id, keys.admin, good)).json();
    await expectError(await create(tenant.id, keys.admin, { ...good, domains: ["b.test", "a.test"] }), 409);
    const second = await (await create(tenant.id, keys.admin, { ...good, domains: ["b.test"] })).json();
    await expectError(await patch(tenant.id, second.id, keys.admin, { domains: ["a.test"] }), 409);
    await expectError(await patch(tenant.id, first.id, keys.admin, { refresh_metadata: true }), 400);
    await expectError(await patch(tenant.id, first.id, keys.admin, { name: "" }), 400);
    await expectError(
      await patch(tenant.id, first.id, keys.admin, { metadata_xml: "x", metadata_url: metadataUrl }),
      400,
    );
    await expectError(await patch(tenant.id, MISSING, keys.admin, { name: "x" }), 404);
    expect(await (await get(tenant.id, first.id, keys.admin)).json()).toEqual(first);
    expect(await count(tenant.id, keys.admin)).toBe(2);
  });

  it("needs the tenant's admin key; another tenant's provider is 404", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const body = { name: "A", domains: ["a.test"], metadata_xml: idp.metadataXml };
    await expectError(await create(a.tenant.id, undefined, body), 401);
    await expectError(await create(a.tenant.id, b.keys.admin, body), 401);
    await expectError(await create(a.tenant.id, a.keys.passkey, body), 401);
    const created = await (await create(a.tenant.id, a.keys.admin, body)).json();
    await expectError(await get(b.tenant.id, created.id, b.keys.admin), 404);
    await expectError(await remove(b.tenant.id, created.id, b.keys.admin), 404);
    await expectError(await get(a.tenant.id, "not-a-uuid", a.keys.admin), 400);
    expect(await count(a.tenant.id, a.keys.admin)).toBe(1);
  });
});
