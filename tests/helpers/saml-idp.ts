// A SAML identity provider for tests: samlify (its own key pair) issues signed responses to the
// AuthnRequests Sesame's SSO endpoint sends. samlify's XML schema validation is switched off for this test
// IdP only (Sesame's side uses node-saml, which verifies everything itself).
import { randomBytes } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import * as samlifyModule from "samlify";
import { createSelfSignedKeyPair, type KeyPair } from "@/lib/saml";

// samlify is CommonJS: Node's ESM loader (Playwright) sees its getter exports only on `default`.
const samlify = (samlifyModule as unknown as { default?: typeof samlifyModule }).default ?? samlifyModule;

samlify.setSchemaValidator({ validate: async () => "skipped" });

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

export interface AuthnRequestSeen {
  id: string;
  acsUrl: string | undefined;
  issuer: string | undefined;
  relayState: string | null;
  signed: boolean;
  /** The raw query of the redirect (what a signed request's signature covers). */
  query: URLSearchParams;
}

/** What to put in (or change about) a response; the defaults make a valid one for the request. */
export interface ResponseOptions {
  nameId?: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
  audience?: string;
  recipient?: string;
  destination?: string | null;
  inResponseTo?: string;
  subjectInResponseTo?: string;
  assertionId?: string;
  issuer?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** No signature at all. */
  unsigned?: boolean;
}

export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  keys: KeyPair;
  metadataXml: string;
  /** Decodes the AuthnRequest of Sesame's redirect (its Location). */
  readRequest(location: string): AuthnRequestSeen;
  /** A base64 SAMLResponse to `request` for the SP of `spMetadataXml`. */
  respond(spMetadataXml: string, request: AuthnRequestSeen, options?: ResponseOptions): Promise<string>;
}

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const newId = () => `_${randomBytes(16).toString("hex")}`;

function attributeStatement(attributes: Record<string, string | string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return "";
  const body = entries
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified">` +
        (Array.isArray(value) ? value : [value])
          .map((one) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(one)}</saml:AttributeValue>`)
          .join("") +
        "</saml:Attribute>",
    )
    .join("");
  return `<saml:AttributeStatement>${body}</saml:AttributeStatement>`;
}

/**
 * A test IdP. `keys` lets two IdPs share an entity id but not a key (a signature by another key);
 * `signWith` signs with other keys than the metadata announces.
 */
export async function createTestIdp(
  options: { entityId?: string; ssoUrl?: string; keys?: KeyPair; signWith?: KeyPair } = {},
): Promise<TestIdp> {
  const keys = options.keys ?? (await createSelfSignedKeyPair("Test IdP"));
  const entityId = options.entityId ?? `https://idp-${randomBytes(4).toString("hex")}.test/metadata`;
  const ssoUrl = options.ssoUrl ?? `${new URL(entityId).origin}/sso`;
  const make = (pair: KeyPair) =>
    samlify.IdentityProvider({
      entityID: entityId,
      privateKey: pair.privateKey,
      signingCert: pair.certificate,
      singleSignOnService: [
        { Binding: REDIRECT, Location: ssoUrl },
        { Binding: POST, Location: ssoUrl },
      ],
      // Not used by Sesame; samlify warns on every IdP without one.
      singleLogoutService: [{ Binding: REDIRECT, Location: `${ssoUrl}/slo` }],
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
    });
  const announced = make(keys);
  const signer = options.signWith ? make(options.signWith) : announced;

  return {
    entityId,
    ssoUrl,
    keys,
    metadataXml: announced.getMetadata(),
    readRequest(location) {
      const url = new URL(location);
      const encoded = url.searchParams.get("SAMLRequest");
      if (!encoded) throw new Error("no SAMLRequest in the redirect");
      const xml = inflateRawSync(Buffer.from(encoded, "base64")).toString("utf8");
      return {
        id: /\sID="([^"]+)"/.exec(xml)?.[1] ?? "",
        acsUrl: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1],
        issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1],
        relayState: url.searchParams.get("RelayState"),
        signed: url.searchParams.has("Signature"),
        query: url.searchParams,
      };
    },
    async respond(spMetadataXml, request, o = {}) {
      const sp = samlify.ServiceProvider({ metadata: spMetadataXml });
      const now = new Date();
      const later = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
      const responseId = newId();
      const values: Record<string, string> = {
        ID: responseId,
        AssertionID: o.assertionId ?? newId(),
        Destination: o.destination === null ? "" : (o.destination ?? request.acsUrl ?? ""),
        Audience: o.audience ?? sp.entityMeta.getEntityID(),
        SubjectRecipient: o.recipient ?? request.acsUrl ?? "",
        Issuer: o.issuer ?? entityId,
        IssueInstant: now.toISOString(),
        StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: (o.notBefore ?? new Date(now.getTime() - 1000)).toISOString(),
        ConditionsNotOnOrAfter: later.toISOString(),
        SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
        NameIDFormat: o.nameIdFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
        NameID: o.nameId ?? "user@acme.test",
      };
      const fill = (template: string) => {
        let xml = template
          .replace(
            "{AuthnStatement}",
            `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
          )
          .replace("{AttributeStatement}", attributeStatement(o.attributes ?? {}))
          // Two InResponseTo placeholders: the Response's and the SubjectConfirmationData's.
          .replace(
            'InResponseTo="{InResponseTo}"',
            `InResponseTo="${escapeXml(o.inResponseTo ?? request.id)}"`,
          )
          .replace(
            'InResponseTo="{InResponseTo}"',
            `InResponseTo="${escapeXml(o.subjectInResponseTo ?? o.inResponseTo ?? request.id)}"`,
          );
        if (o.destination === null) xml = xml.replace(' Destination="{Destination}"', "");
        return samlify.SamlLib.replaceTagsByValue(xml, values);
      };
      if (o.unsigned) {
        return Buffer.from(fill(samlify.SamlLib.defaultLoginResponseTemplate.context)).toString("base64");
      }
      const { context } = await signer.createLoginResponse(
        sp,
        { extract: { request: { id: request.id } } },
        "post",
        { email: o.nameId ?? "user@acme.test" },
        (template: string) => ({ id: responseId, context: fill(template) }),
      );
      return context;
    },
  };
}

/** Decodes a base64 SAMLResponse (for crafting variants). */
export const decodeResponse = (encoded: string) => Buffer.from(encoded, "base64").toString("utf8");
export const encodeResponse = (xml: string) => Buffer.from(xml).toString("base64");
