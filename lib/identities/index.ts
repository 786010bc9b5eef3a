// A user's accounts at third-party (OAuth 2.0 / OIDC) and SAML identity providers: the one owner of the
// identities table. lib/thirdparty and lib/saml verify the protocol, then call signInWithIdentity.
export {
  linkIdentity,
  signInWithIdentity,
  type AssertedIdentity,
  type IdentityOutcome,
  type IdentityPolicy,
  type IdentitySignIn,
} from "./sign-in";
export { listIdentities, removeIdentity, removeProviderIdentities, removeUserIdentities } from "./manage";
export { findIdentity, type IdentityKey, type IdentityKind } from "./store";
