import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as acsRoute from "@/app/(public-api)/t/[tenantId]/saml/acs/route";
import * as metadataRoute from "@/app/(public-api)/t/[tenantId]/saml/metadata/route";
import * as providerRoute from "@/app/(public-api)/t/[tenantId]/saml/provider/route";
import * as ssoRoute from "@/app/(public-api)/t/[tenantId]/saml/sso/route";
import * as tokenRoute from "@/app/(public-api)/t/[tenantId]/token/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { identities, samlRequests } from "@/lib/db/schema";
import { createSamlProvider, createSelfSignedKeyPair, type SamlProvider } from "@/lib/saml";
import type { Tenant } from "@/lib/tenants";
import { call } from "@/tests/helpers/http";
import { createPublicTenant, createUserWithEmail, ORIGIN, TEST_CONTEXT } from "@/tests/helpers/public-api";
import {
  createTestIdp,
  decodeResponse,
  encodeResponse,
  type ResponseOptions,
  type TestIdp,
} from "@/tests/helpers/saml-idp";

const APP = `${ORIGIN}/app`;

interface Setup {
  tenant: Tenant;
  idp: TestIdp;
  provider: SamlProvider;
  spMetadata: string;
}

async function setup(options: { allowLinking?: boolean; signRequests?: boolean } = {}): Promise<Setup> {
  const tenant = await createPublicTenant();
  const idp = await createTestIdp();
  const provider = await createSamlProvider(
    tenant.id,
    {
      name: "Acme",
      domains: ["acme.test"],
      metadata_xml: idp.metadataXml,
      ...(options.allowLinking === undefined ? {} : { allow_linking: options.allowLinking }),
      ...(options.signRequests ? { sign_requests: true } : {}),
    },
    TEST_CONTEXT,
  );
  const res = await call(metadataRoute.GET, `/t/${tenant.id}/saml/metadata`, {
    params: { tenantId: tenant.id },
  });
  expect(res.status).toBe(200);
  return { tenant, idp, provider, spMetadata: await res.text() };
}

/** The test's browser: its `sesame_saml` binding cookie per tenant (one jar per tenant keeps tests apart). */
const jar = new Map<string, string>();

async function sso(tenant: Tenant, query: Record<string, string>) {
  const cookie = jar.get(tenant.id);
  const res = await call(ssoRoute.GET, `/t/${tenant.id}/saml/sso?${new URLSearchParams(query)}`, {
    params: { tenantId: tenant.id },
    ...(cookie ? { headers: { cookie: `sesame_saml=${cookie}` } } : {}),
  });
  const set = /^sesame_saml=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (set) jar.set(tenant.id, set);
  return res;
}

/** Posts the IdP's form from the test's browser (its cookie), or from another (`cookie`: null or a value). */
const acs = (
  tenant: Tenant,
  form: Record<string, string>,
  options: { contentType?: string; cookie?: string | null } = {},
) => {
  const cookie = options.cookie === undefined ? jar.get(tenant.id) : options.cookie;
  return call(acsRoute.POST, `/t/${tenant.id}/saml/acs`, {
    method: "POST",
    params: { tenantId: tenant.id },
    headers: {
      "content-type": options.contentType ?? "application/x-www-form-urlencoded",
      ...(cookie ? { cookie: `sesame_saml=${cookie}` } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
};

/** Starts a sign-in at Sesame and returns the AuthnRequest the IdP receives. */
async function start(s: Setup, redirectTo = APP) {
  const res = await sso(s.tenant, { domain: "acme.test", redirect_to: redirectTo });
  expect(res.status).toBe(302);
  const location = res.headers.get("location")!;
  expect(location.startsWith(s.idp.ssoUrl)).toBe(true);
  return s.idp.readRequest(location);
}

async function signIn(s: Setup, options: ResponseOptions = {}) {
  const request = await start(s);
  const SAMLResponse = await s.idp.respond(s.spMetadata, request, options);
  return { request, SAMLResponse, res: await acs(s.tenant, { SAMLResponse, RelayState: "" }) };
}

async function exchange(tenant: Tenant, location: string) {
  const token = new URL(location).searchParams.get("hanko_token")!;
  const res = await call(tokenRoute.POST, `/t/${tenant.id}/token`, {
    method: "POST",
    params: { tenantId: tenant.id },
    body: { value: token },
    headers: { cookie: `sesame_saml=${jar.get(tenant.id)}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { user_id: string };
}

/** A failure redirect back to the app with Hanko's error parameters. */
function expectErrorRedirect(res: Response, description?: RegExp) {
  expect(res.status).toBe(302);
  const url = new URL(res.headers.get("location")!);
  expect(url.origin + url.pathname).toBe(APP);
  expect(url.searchParams.get("hanko_token")).toBeNull();
  expect(url.searchParams.get("error")).toBeTruthy();
  if (description) expect(url.searchParams.get("error_description")).toMatch(description);
  return url;
}

async function identityCount(tenantId: string) {
  const db = await executor();
  return (await db.select().from(identities).where(eq(identities.tenantId, tenantId))).length;
}

/**
 * The browser is told only that the response did not verify; the audit log's failure names the check
 * node-saml refused it for.
 */
async function expectRefusedFor(tenantId: string, reason: RegExp) {
  const failures = (await listAuditEvents(tenantId, { limit: 100, type: "saml.acs.failed" })).items;
  expect(JSON.stringify(failures[0]?.details)).toMatch(reason);
}

async function auditTypes(tenantId: string) {
  return (await listAuditEvents(tenantId, { limit: 100 })).items.map((event) => event.type);
}

describe("SAML service provider", () => {
  it("serves SP metadata with the entity id, ACS URL and a stable signing certificate", async () => {
    const { tenant, spMetadata } = await setup();
    expect(spMetadata).toContain(`entityID="${ORIGIN}/t/${tenant.id}/saml/metadata"`);
    expect(spMetadata).toContain(`Location="${ORIGIN}/t/${tenant.id}/saml/acs"`);
    expect(spMetadata).toContain('WantAssertionsSigned="true"');
    expect(spMetadata).toContain("X509Certificate");
    const again = await call(metadataRoute.GET, `/t/${tenant.id}/saml/metadata`, {
      params: { tenantId: tenant.id },
    });
    expect(again.headers.get("content-type")).toMatch(/samlmetadata\+xml/);
    const cert = (xml: string) => /<ds:X509Certificate>([^<]+)</.exec(xml)?.[1];
    expect(cert(await again.text())).toBe(cert(spMetadata));
  });

  it("signs up just in time, signs in again, and the token exchange gives a session", async () => {
    const s = await setup();
    const first = await signIn(s, {
      nameId: "00u1",
      attributes: { email: "Jane@Acme.test", firstName: "Jane", lastName: "Doe", groups: ["a", "b"] },
    });
    expect(first.res.status).toBe(302);
    const location = first.res.headers.get("location")!;
    expect(location.startsWith(`${APP}?hanko_token=`)).toBe(true);
    const { user_id } = await exchange(s.tenant, location);
    const db = await executor();
    const [identity] = await db.select().from(identities).where(eq(identities.tenantId, s.tenant.id));
    expect(identity).toMatchObject({
      userId: user_id,
      kind: "saml",
      providerId: s.provider.id,
      subject: "00u1",
      email: "jane@acme.test",
      emailVerified: true,
    });
    expect(identity!.claims).toMatchObject({ name: "Jane Doe", groups: ["a", "b"] });

    const second = await signIn(s, { nameId: "00u1", attributes: { email: "jane@acme.test" } });
    expect(second.res.status).toBe(302);
    expect((await exchange(s.tenant, second.res.headers.get("location")!)).user_id).toBe(user_id);
    expect(await identityCount(s.tenant.id)).toBe(1);
    const types = await auditTypes(s.tenant.id);
    expect(types).toContain("saml.sso.started");
    expect(types).toContain("saml.acs.succeeded");
    expect(types).toContain("identity.created");
  });

  it("links an existing user by an email of the IdP's domain; not by another domain's", async () => {
    const s = await setup();
    const user = await createUserWithEmail(s.tenant, "bob@acme.test");
    const linked = await signIn(s, { nameId: "bob-id", attributes: { mail: "bob@acme.test" } });
    expect(linked.res.status).toBe(302);
    expect((await exchange(s.tenant, linked.res.headers.get("location")!)).user_id).toBe(user.id);

    await createUserWithEmail(s.tenant, "eve@elsewhere.test");
    const other = await signIn(s, { nameId: "eve-id", attributes: { email: "eve@elsewhere.test" } });
    expectErrorRedirect(other.res);
    expect(new URL(other.res.headers.get("location")!).searchParams.get("error")).toBe("unverified_email");
  });

  it("security 3.8: an unverified_email refusal is audited with the check that failed, not as Forbidden", async () => {
    const s = await setup();
    await createUserWithEmail(s.tenant, "eve@elsewhere.test");
    const { res } = await signIn(s, { nameId: "eve-id", attributes: { email: "eve@elsewhere.test" } });
    const url = expectErrorRedirect(res);
    expect(url.searchParams.get("error")).toBe("unverified_email");
    const [failure] = (await listAuditEvents(s.tenant.id, { limit: 10, type: "saml.acs.failed" })).items;
    const reason = (failure!.details as { reason: string }).reason;
    expect(reason).not.toBe("Forbidden");
    expect(reason).toMatch(/elsewhere\.test.*not one of the IdP's domains/);
  });

  it("refuses linking when the IdP does not allow it", async () => {
    const s = await setup({ allowLinking: false });
    await createUserWithEmail(s.tenant, "carol@acme.test");
    const { res } = await signIn(s, { nameId: "carol", attributes: { email: "carol@acme.test" } });
    expect(new URL(expectErrorRedirect(res).href).searchParams.get("error")).toBe("user_conflict");
  });

  it("binds the sign-in to the browser with a SameSite=None cookie on every path, reused", async () => {
    const s = await setup();
    const first = await sso(s.tenant, { domain: "acme.test", redirect_to: APP });
    const cookie = first.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^sesame_saml=[\w-]{43}; /);
    expect(cookie).toContain("Path=/;");
    expect(cookie).toContain("Max-Age=600");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=None");
    const second = await sso(s.tenant, { domain: "acme.test", redirect_to: APP });
    expect(second.headers.get("set-cookie")).toBe(cookie);
  });

  it("signs AuthnRequests when the IdP asks for it", async () => {
    const s = await setup({ signRequests: true });
    const request = await start(s);
    expect(request.signed).toBe(true);
    expect(request.query.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    const unsigned = await setup();
    expect((await start(unsigned)).signed).toBe(false);
  });

  describe("refuses", () => {
    const cases: [string, ResponseOptions | ((s: Setup) => ResponseOptions), RegExp][] = [
      ["an unsigned assertion", { unsigned: true }, /signature/i],
      ["a wrong audience", { audience: "https://other.test/sp" }, /audience/i],
      ["a wrong recipient", { recipient: "https://evil.test/acs" }, /Recipient/],
      ["a wrong destination", { destination: "https://evil.test/acs" }, /Destination/],
      ["an expired assertion", { notOnOrAfter: new Date(Date.now() - 5 * 60_000) }, /expired|valid/i],
      ["a not yet valid assertion", { notBefore: new Date(Date.now() + 10 * 60_000) }, /not yet valid/i],
      ["another issuer", { issuer: "https://evil.test/idp" }, /Issuer/],
      [
        "a transient NameID",
        { nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient" },
        /transient/,
      ],
      [
        "an assertion answering another request",
        { subjectInResponseTo: "_someotherrequest" },
        /InResponseTo/,
      ],
    ];
    for (const [name, options, description] of cases) {
      it(name, async () => {
        const s = await setup();
        const { res } = await signIn(s, typeof options === "function" ? options(s) : options);
        const url = expectErrorRedirect(res);
        await expectRefusedFor(s.tenant.id, description);
        // Nothing of node-saml's own words reaches the browser beyond the name of the check.
        expect(url.searchParams.get("error_description")!.length).toBeLessThan(120);
        expect(await identityCount(s.tenant.id)).toBe(0);
        expect(await auditTypes(s.tenant.id)).toContain("saml.acs.failed");
      });
    }

    it("a signature by another key", async () => {
      const s = await setup();
      const forger = await createTestIdp({
        entityId: s.idp.entityId,
        ssoUrl: s.idp.ssoUrl,
        keys: s.idp.keys,
        signWith: await createSelfSignedKeyPair("Forger"),
      });
      const request = await start(s);
      const res = await acs(s.tenant, { SAMLResponse: await forger.respond(s.spMetadata, request) });
      expectErrorRedirect(res);
      await expectRefusedFor(s.tenant.id, /signature/i);
      expect(await identityCount(s.tenant.id)).toBe(0);
    });

    it("a wrapped signature (XSW: a forged assertion beside the signed one)", async () => {
      const s = await setup();
      const request = await start(s);
      const genuine = decodeResponse(
        await s.idp.respond(s.spMetadata, request, { nameId: "victim@acme.test" }),
      );
      const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(genuine)![0];
      const forged = assertion
        .replace(/ID="[^"]+"/, 'ID="_forged"')
        .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "")
        .replace("victim@acme.test", "attacker@acme.test");
      // Variant 1: the forged assertion first, the signed one moved into the Status extension.
      const wrapped = genuine
        .replace(assertion, forged)
        .replace("</samlp:Status>", `<samlp:StatusDetail>${assertion}</samlp:StatusDetail></samlp:Status>`);
      expectErrorRedirect(await acs(s.tenant, { SAMLResponse: encodeResponse(wrapped) }));
      await expectRefusedFor(s.tenant.id, /signature/i);
      // Variant 2: the signed assertion kept, a forged one beside it (two assertions).
      const request2 = await start(s);
      const genuine2 = decodeResponse(
        await s.idp.respond(s.spMetadata, request2, { nameId: "victim@acme.test" }),
      );
      const assertion2 = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(genuine2)![0];
      const beside = genuine2.replace(
        assertion2,
        assertion2.replace(/ID="[^"]+"/, 'ID="_forged2"').replace("victim@acme.test", "attacker@acme.test") +
          assertion2,
      );
      expectErrorRedirect(await acs(s.tenant, { SAMLResponse: encodeResponse(beside) }));
      expect(await identityCount(s.tenant.id)).toBe(0);
    });

    it("security 3.7: a Response whose top-level status is not Success, even with a signed assertion", async () => {
      const SUCCESS = '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/>';
      const s = await setup();
      const variants: [string, (xml: string) => string, RegExp][] = [
        [
          "Responder / AuthnFailed with a message",
          (xml) =>
            xml.replace(
              SUCCESS,
              '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">' +
                '<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"/></samlp:StatusCode>' +
                "<samlp:StatusMessage>user locked out</samlp:StatusMessage>",
            ),
          /status:Responder.*status:AuthnFailed.*user locked out/,
        ],
        [
          "Requester",
          (xml) => xml.replace(SUCCESS, SUCCESS.replace("Success", "Requester")),
          /status:Requester/,
        ],
        [
          // XSW on the status: a Success code wrapped below the real one must not be read as the answer.
          "Success nested under Responder",
          (xml) =>
            xml.replace(
              SUCCESS,
              `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">${SUCCESS}</samlp:StatusCode>`,
            ),
          /status:Responder/,
        ],
        [
          "a second Status beside the real one",
          (xml) =>
            xml.replace(
              `<samlp:Status>${SUCCESS}</samlp:Status>`,
              `<samlp:Status>${SUCCESS.replace("Success", "Responder")}</samlp:Status><samlp:Status>${SUCCESS}</samlp:Status>`,
            ),
          /Status/,
        ],
        ["no Status at all", (xml) => xml.replace(`<samlp:Status>${SUCCESS}</samlp:Status>`, ""), /Status/],
      ];
      for (const [name, change, audited] of variants) {
        const request = await start(s);
        const genuine = decodeResponse(
          await s.idp.respond(s.spMetadata, request, { nameId: "jo@acme.test" }),
        );
        expect(genuine, name).toContain(SUCCESS);
        const res = await acs(s.tenant, { SAMLResponse: encodeResponse(change(genuine)) });
        const url = expectErrorRedirect(res);
        expect(url.searchParams.get("error_description"), name).toMatch(/status/i);
        // The IdP's own words stay in the audit log.
        expect(url.searchParams.get("error_description"), name).not.toMatch(/locked/);
        await expectRefusedFor(s.tenant.id, audited);
        expect(await identityCount(s.tenant.id), name).toBe(0);
      }
      // The same response with its Success status signs in.
      const { res } = await signIn(s, { nameId: "jo@acme.test" });
      expect(res.headers.get("location")).toMatch(/hanko_token=/);
    });

    it("a replayed response and a replayed assertion id", async () => {
      const s = await setup();
      const { SAMLResponse, res } = await signIn(s, { assertionId: "_fixed-assertion" });
      expect(res.status).toBe(302);
      // The same response again: its request is used up.
      const again = await acs(s.tenant, { SAMLResponse });
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ code: 400 });
      // A new request answered with an assertion id already consumed.
      const replay = await signIn(s, { assertionId: "_fixed-assertion" });
      const url = expectErrorRedirect(replay.res);
      expect(url.searchParams.get("error_description")).toMatch(/replay|already/i);
      expect(await identityCount(s.tenant.id)).toBe(1);
    });

    it("a response posted from another browser than the one that started the sign-in (login CSRF)", async () => {
      const s = await setup();
      const request = await start(s);
      const SAMLResponse = await s.idp.respond(s.spMetadata, request);
      expectErrorRedirect(await acs(s.tenant, { SAMLResponse }, { cookie: null }), /another browser/);
      const again = await start(s);
      const other = await s.idp.respond(s.spMetadata, again);
      expectErrorRedirect(
        await acs(s.tenant, { SAMLResponse: other }, { cookie: "A".repeat(43) }),
        /another browser/,
      );
      expect(await identityCount(s.tenant.id)).toBe(0);
    });

    it("an unknown InResponseTo (JSON: no way back is known)", async () => {
      const s = await setup();
      const request = await start(s);
      const SAMLResponse = await s.idp.respond(s.spMetadata, request, { inResponseTo: "_unknown" });
      const res = await acs(s.tenant, { SAMLResponse });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 400, message: expect.any(String) });
      // The real request is still pending (nothing was consumed).
      const db = await executor();
      const rows = await db
        .select()
        .from(samlRequests)
        .where(and(eq(samlRequests.tenantId, s.tenant.id), eq(samlRequests.requestId, request.id)));
      expect(rows).toHaveLength(1);
    });

    it("a response for another tenant (request of X posted to Y's ACS)", async () => {
      const x = await setup();
      const y = await setup();
      const request = await start(x);
      const SAMLResponse = await x.idp.respond(x.spMetadata, request);
      const res = await acs(y.tenant, { SAMLResponse });
      expect(res.status).toBe(400);
      // X's request was not taken by Y's refusal: X can still finish.
      expect((await acs(x.tenant, { SAMLResponse })).status).toBe(302);
      expect(await identityCount(y.tenant.id)).toBe(0);
    });

    it("bad input on the ACS: no SAMLResponse, not base64, not XML, JSON body, a DTD", async () => {
      const s = await setup();
      for (const form of [{}, { SAMLResponse: "%%%" }, { SAMLResponse: encodeResponse("not xml <") }]) {
        const res = await acs(s.tenant, form as Record<string, string>);
        expect(res.status).toBe(400);
        expect(Object.keys(await res.json()).sort()).toEqual(["code", "message"]);
      }
      expect((await acs(s.tenant, { SAMLResponse: "x" }, { contentType: "application/json" })).status).toBe(
        415,
      );
      // A DTD is refused before anything is parsed or taken: the request stays pending.
      const request = await start(s);
      const genuine = decodeResponse(await s.idp.respond(s.spMetadata, request));
      const withDtd = genuine.replace("<samlp:Response", '<!DOCTYPE r [<!ENTITY e "x">]><samlp:Response');
      const refused = await acs(s.tenant, { SAMLResponse: encodeResponse(withDtd) });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(/DOCTYPE/);
      expect((await acs(s.tenant, { SAMLResponse: encodeResponse(genuine) })).status).toBe(302);
      expect(await identityCount(s.tenant.id)).toBe(1);
    });
  });

  describe("SSO bad input", () => {
    it("refuses a redirect_to off the tenant's origins, unknown domains, and ambiguous queries", async () => {
      const s = await setup();
      const expectJson = async (res: Response, status: number) => {
        expect(res.status).toBe(status);
        expect(res.headers.get("location")).toBeNull();
        expect((await res.json()).code).toBe(status);
      };
      await expectJson(await sso(s.tenant, { domain: "acme.test", redirect_to: "https://evil.test/" }), 400);
      await expectJson(await sso(s.tenant, { domain: "acme.test", redirect_to: "//evil.test/" }), 400);
      await expectJson(await sso(s.tenant, { domain: "unknown.test", redirect_to: APP }), 404);
      await expectJson(await sso(s.tenant, { redirect_to: APP }), 400);
      await expectJson(
        await sso(s.tenant, { domain: "acme.test", idp_id: s.provider.id, redirect_to: APP }),
        400,
      );
      await expectJson(await sso(s.tenant, { idp_id: randomUUID(), redirect_to: APP }), 404);
      await expectJson(await sso(s.tenant, { domain: "acme.test" }), 400);
      const db = await executor();
      expect(await db.select().from(samlRequests).where(eq(samlRequests.tenantId, s.tenant.id))).toHaveLength(
        0,
      );
      expect(await auditTypes(s.tenant.id)).toContain("saml.sso.failed");
    });

    it("starts by idp_id too", async () => {
      const s = await setup();
      const res = await sso(s.tenant, { idp_id: s.provider.id, redirect_to: APP });
      expect(res.status).toBe(302);
    });
  });

  it("answers the deprecated GET /saml/provider as Hanko does", async () => {
    const s = await setup();
    const get = (domain: string) =>
      call(providerRoute.GET, `/t/${s.tenant.id}/saml/provider?domain=${domain}`, {
        params: { tenantId: s.tenant.id },
      });
    const res = await get("ACME.test");
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(await res.json()).toMatchObject({ enabled: true, name: "Acme", domain: "acme.test" });
    const missing = await get("other.test");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
  });
});
