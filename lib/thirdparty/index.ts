// Third-party sign-in (OAuth 2.0 / OIDC): the one owner of third_party_providers and third_party_states.
// Verifies the protocol (openid-client), then lib/identities signs in, links or signs up.
export { BUILT_IN_KINDS, KINDS, PROVIDER_KINDS, type ProviderKind } from "./kinds";
export {
  CreateProviderInput,
  UpdateProviderInput,
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  updateProvider,
} from "./providers";
export { callbackUrl } from "./client";
export {
  BINDING_COOKIE_PATH,
  BROWSER_COOKIE,
  bindingCookieName,
  thirdPartyCookieName,
} from "./browser-cookie";
export {
  STATE_TTL_SECONDS,
  finishThirdPartySignIn,
  startThirdPartySignIn,
  type ThirdPartyFinish,
  type ThirdPartyStart,
} from "./sign-in";
export { errorRedirect, explainRefusal, isAllowedRedirect, withQuery } from "./redirect";
export { listEnabledProviders, type EnabledProvider } from "./enabled-providers";
