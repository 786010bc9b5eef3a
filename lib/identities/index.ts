// A user's accounts at third-party (OAuth 2.0 / OIDC) and SAML identity providers: the one owner of the
// identities table. lib/thirdparty and lib/saml verify the protocol, then call signInWithIdentity.
export { detachIdentity, listIdentities, removeProviderIdentities, removeUserIdentities } from "./manage";
export { findIdentity, type IdentityKey, type IdentityKind } from "./store";
export { attachIdentity, refreshIdentity } from "./link";
export type { IdentityValues } from "./store";
