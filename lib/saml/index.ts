// SAML 2.0 service provider: the owner of saml_identity_providers, saml_requests, saml_assertions and
// saml_service_provider_keys. Protocol checks by @node-saml/node-saml; accounts through lib/identities.
export {
  CreateSamlProviderInput,
  UpdateSamlProviderInput,
  createSamlProvider,
  deleteSamlProvider,
  findEnabledProviderForDomain,
  getSamlProvider,
  listSamlProviders,
  updateSamlProvider,
  type AttributeMapping,
  type SamlProvider,
} from "./providers";
// The test IdP signs with a key pair made the way the SP's is.
export { createSelfSignedKeyPair, type KeyPair } from "./keys";
export { serviceProviderMetadata, serviceProviderUrls } from "./service-provider";
export {
  SAML_BROWSER_COOKIE,
  SamlRedirectError,
  samlCookieName,
  completeSamlSignIn,
  startSamlSignIn,
} from "./sign-in";
