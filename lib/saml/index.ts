// SAML 2.0 service provider: the owner of saml_identity_providers, saml_requests, saml_assertions and
// saml_service_provider_keys. Protocol checks by @node-saml/node-saml; accounts through lib/identities.
import { findEnabledProviderForDomain } from "./providers";

export {
  CreateSamlProviderInput,
  DEFAULT_ATTRIBUTES,
  UpdateSamlProviderInput,
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  updateSamlProvider,
  type AttributeMapping,
  type SamlProvider,
} from "./providers";
export { parseIdpMetadata, fetchMetadata, type IdpMetadata } from "./metadata";
export { createSelfSignedKeyPair, serviceProviderKeys, type KeyPair } from "./keys";
export {
  serviceProviderMetadata,
  serviceProviderUrls,
  CLOCK_SKEW_MS,
  REQUEST_TTL_SECONDS,
} from "./service-provider";
export {
  SAML_BROWSER_COOKIE,
  SamlRedirectError,
  type SamlStart,
  completeSamlSignIn,
  errorRedirectUrl,
  mapAttributes,
  startSamlSignIn,
} from "./sign-in";

/** The enabled SAML identity provider that serves this email domain (lower-cased), if any. */
export async function findSamlProviderForDomain(
  tenantId: string,
  domain: string,
): Promise<{ id: string; name: string } | undefined> {
  const idp = await findEnabledProviderForDomain(tenantId, domain);
  return idp ? { id: idp.id, name: idp.name } : undefined;
}

/** The enabled IdP of a domain, whole (the deprecated `GET /saml/provider`). */
export { findEnabledProviderForDomain };
