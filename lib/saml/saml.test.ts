import { createPublicKey, createPrivateKey, X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Profile } from "@node-saml/node-saml";
import { createTestTenant } from "@/tests/helpers/tenants";
import { createSelfSignedKeyPair, serviceProviderKeys } from "./keys";
import { parseIdpMetadata } from "./metadata";
import { mapAttributes } from "./sign-in";

let certBody: string;
beforeAll(async () => {
  const { certificate } = await createSelfSignedKeyPair("Metadata fixture");
  certBody = certificate.replace(/-----[A-Z ]+-----|\s/g, "");
});

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

const keyDescriptor = (use?: string) =>
  `<KeyDescriptor${use ? ` use="${use}"` : ""}><ds:KeyInfo xmlns:ds="${DS}"><ds:X509Data><ds:X509Certificate>\n${certBody}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></KeyDescriptor>`;

describe("parseIdpMetadata", () => {
  it("reads Entra ID's shape: role descriptors first, signing key, Redirect and POST SSO", () => {
    const xml = `<?xml version="1.0"?><EntityDescriptor xmlns="${MD}" ID="_x" entityID="https://sts.windows.net/tid/">
      <RoleDescriptor xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="fed:SecurityTokenServiceType" protocolSupportEnumeration="http://docs.oasis-open.org/wsfed/federation/200706"/>
      <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keyDescriptor("signing")}${keyDescriptor("encryption").replace(certBody, "QUJD")}
        <SingleSignOnService Binding="${REDIRECT}" Location="https://login.microsoftonline.com/tid/saml2"/>
        <SingleSignOnService Binding="${POST}" Location="https://login.microsoftonline.com/tid/saml2"/>
      </IDPSSODescriptor></EntityDescriptor>`;
    const parsed = parseIdpMetadata(xml);
    expect(parsed.entityId).toBe("https://sts.windows.net/tid/");
    expect(parsed.ssoUrl).toBe("https://login.microsoftonline.com/tid/saml2");
    expect(parsed.certificates).toHaveLength(1);
    expect(new X509Certificate(parsed.certificates[0]!).subject).toContain("Metadata fixture");
  });

  it("reads Okta's and Google's shape (md: prefix, key without use) and an EntitiesDescriptor", () => {
    const entity = `<md:EntityDescriptor xmlns:md="${MD}" entityID="http://www.okta.com/exk1"><md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keyDescriptor().replace(/<(\/?)KeyDescriptor/g, "<$1md:KeyDescriptor")}<md:SingleSignOnService Binding="${REDIRECT}" Location="https://acme.okta.com/app/x/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    expect(parseIdpMetadata(entity)).toMatchObject({
      entityId: "http://www.okta.com/exk1",
      ssoUrl: "https://acme.okta.com/app/x/sso/saml",
    });
    const wrapped = `<md:EntitiesDescriptor xmlns:md="${MD}">${entity}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(wrapped).entityId).toBe("http://www.okta.com/exk1");
    // A federation's aggregate names many IdPs: none is taken on trust as "the first".
    const second = entity.replace("http://www.okta.com/exk1", "https://evil.test/idp");
    const aggregate = `<md:EntitiesDescriptor xmlns:md="${MD}">${second}${entity}</md:EntitiesDescriptor>`;
    expect(() => parseIdpMetadata(aggregate)).toThrow(
      expect.objectContaining({ details: [expect.stringMatching(/more than one identity provider/)] }),
    );
  });

  it("refuses what it cannot use", () => {
    const sso = `<SingleSignOnService Binding="${REDIRECT}" Location="https://idp.test/sso"/>`;
    const doc = (inner: string, entityId = "https://idp.test") =>
      `<EntityDescriptor xmlns="${MD}" entityID="${entityId}"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${inner}</IDPSSODescriptor></EntityDescriptor>`;
    const cases: [string, RegExp][] = [
      ["<not xml", /well-formed/],
      [`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${doc(keyDescriptor() + sso)}`, /DOCTYPE/],
      [doc(keyDescriptor() + sso, ""), /entityID/],
      [doc(keyDescriptor() + sso.replace(REDIRECT, POST)), /HTTP-Redirect/],
      [doc(keyDescriptor() + sso.replace("https://idp.test/sso", "javascript:alert(1)")), /http/],
      [doc(sso), /certificate/],
      [doc(keyDescriptor("encryption") + sso), /certificate/],
      [
        `<EntityDescriptor xmlns="${MD}" entityID="x"><SPSSODescriptor/></EntityDescriptor>`,
        /IDPSSODescriptor/,
      ],
    ];
    for (const [xml, detail] of cases) {
      expect(() => parseIdpMetadata(xml), xml.slice(0, 60)).toThrow(
        expect.objectContaining({ code: "VALIDATION_FAILED", details: [expect.stringMatching(detail)] }),
      );
    }
  });
});

const profile = (nameID: string, attributes: Record<string, unknown>) =>
  ({ issuer: "x", nameID, nameIDFormat: "", attributes }) as unknown as Profile;

describe("mapAttributes", () => {
  it("knows Entra ID's claim URIs", () => {
    expect(
      mapAttributes(
        profile("opaque-object-id", {
          "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": "Ann@Contoso.com",
          "http://schemas.microsoft.com/identity/claims/displayname": "Ann A",
          "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups": ["g1", "g2"],
        }),
        {},
      ),
    ).toEqual({ email: "ann@contoso.com", name: "Ann A", groups: ["g1", "g2"] });
  });

  it("combines Okta's firstName/lastName; falls back to an email NameID (Google Workspace)", () => {
    expect(
      mapAttributes(profile("x", { email: "b@acme.test", firstName: "Bo", lastName: "Li" }), {}),
    ).toEqual({
      email: "b@acme.test",
      name: "Bo Li",
      groups: [],
    });
    expect(mapAttributes(profile("carl@acme.test", {}), {})).toMatchObject({ email: "carl@acme.test" });
  });

  it("uses only the configured names when given; a non-email value is no email", () => {
    const attributes = { email: "wrong@acme.test", "user.mail": "right@acme.test", team: "core" };
    expect(mapAttributes(profile("id", attributes), { email: "user.mail", groups: "team" })).toEqual({
      email: "right@acme.test",
      name: undefined,
      groups: ["core"],
    });
    expect(mapAttributes(profile("not-an-email", { email: "nope" }), {}).email).toBeUndefined();
  });
});

describe("serviceProviderKeys", () => {
  it("makes one key pair per tenant, also when two callers race on the first use", async () => {
    const { tenant } = await createTestTenant();
    const [a, b] = await Promise.all([serviceProviderKeys(tenant.id), serviceProviderKeys(tenant.id)]);
    expect(a).toEqual(b);
    const certificate = new X509Certificate(a.certificate);
    const publicKey = createPublicKey(createPrivateKey(a.privateKey));
    expect(certificate.publicKey.export({ format: "pem", type: "spki" })).toBe(
      publicKey.export({ format: "pem", type: "spki" }),
    );
    expect(certificate.checkPrivateKey(createPrivateKey(a.privateKey))).toBe(true);
    const other = await createTestTenant();
    expect((await serviceProviderKeys(other.tenant.id)).certificate).not.toBe(a.certificate);
  });
});
