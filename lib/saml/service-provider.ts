import { randomBytes } from "node:crypto";
import {
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
  type CacheProvider,
} from "@node-saml/node-saml";
import { getConfig } from "@/lib/config";
import type { SamlIdentityProviderRow } from "@/lib/db/schema";
import { serviceProviderKeys } from "./keys";

/** How long an AuthnRequest may be answered. */
export const REQUEST_TTL_SECONDS = 600;
/** Clock difference tolerated on NotBefore / NotOnOrAfter (IdP and Sesame clocks). */
export const CLOCK_SKEW_MS = 60_000;

/** Our SAML endpoints for a tenant; the entity id is the metadata URL (what IdPs fetch it from). */
export function serviceProviderUrls(tenantId: string) {
  const base = `${getConfig().baseUrl.replace(/\/$/, "")}/t/${tenantId}/saml`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, ssoUrl: `${base}/sso` };
}

/**
 * The SP metadata (node-saml): entity id, the HTTP-POST ACS, WantAssertionsSigned and the tenant's
 * signing certificate. node-saml marks AuthnRequestsSigned="true" whenever it is given the key; whether
 * requests are signed is a per-IdP choice, so the attribute says "false" (an IdP that insists on signed
 * requests is configured with sign_requests on this side).
 */
export async function serviceProviderMetadata(tenantId: string): Promise<string> {
  const keys = await serviceProviderKeys(tenantId);
  const { entityId, acsUrl } = serviceProviderUrls(tenantId);
  const xml = generateServiceProviderMetadata({
    issuer: entityId,
    callbackUrl: acsUrl,
    identifierFormat: null,
    wantAssertionsSigned: true,
    privateKey: keys.privateKey,
    publicCerts: keys.certificate,
    signatureAlgorithm: "sha256",
  });
  return xml.replace('AuthnRequestsSigned="true"', 'AuthnRequestsSigned="false"');
}

/** SAML request ids: `_` + 160 random bits (an xs:ID must not start with a digit). */
const newRequestId = () => `_${randomBytes(20).toString("hex")}`;

/**
 * A node-saml instance for one IdP of one tenant. The checks that matter are fixed here: the assertion
 * must be signed by one of the IdP's certificates (whether or not the response is), audience = our entity
 * id, InResponseTo always (answered by `cache`, which the caller binds to one stored request), timestamps
 * with CLOCK_SKEW_MS. No RequestedAuthnContext: Entra ID refuses passwordless / MFA logins against
 * PasswordProtectedTransport. No NameIDPolicy format: the IdP sends the format it is configured with.
 */
export async function samlClient(
  tenantId: string,
  idp: SamlIdentityProviderRow,
  cache: CacheProvider,
  use: "request" | "response",
): Promise<SAML> {
  const { entityId, acsUrl } = serviceProviderUrls(tenantId);
  // Only an AuthnRequest is signed with the SP key; verifying a response needs the IdP's certificates only.
  const signing = use === "request" && idp.signRequests ? await serviceProviderKeys(tenantId) : undefined;
  return new SAML({
    issuer: entityId,
    audience: entityId,
    callbackUrl: acsUrl,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    identifierFormat: null,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_SECONDS * 1000,
    cacheProvider: cache,
    disableRequestedAuthnContext: true,
    generateUniqueId: newRequestId,
    signatureAlgorithm: "sha256",
    ...(signing ? { privateKey: signing.privateKey } : {}),
  });
}
