// A user's accounts at third-party (OAuth 2.0 / OIDC) and SAML identity providers: the one owner of the
// identities table. lib/thirdparty and lib/saml verify the protocol, then call signInWithIdentity.
export {
  detachIdentity,
  findIdentity,
  listIdentities,
  removeProviderIdentities,
  removeUserIdentities,
} from "./manage";
export type { IdentityKey, IdentityKind, IdentityValues } from "./identity";
export { attachIdentity, refreshIdentity } from "./link";
