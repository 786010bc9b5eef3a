import {
  ASSERTION_SCHEME,
  SUPPORTED_SIGNATURE_ALGORITHMS,
  type MatchCriteria,
  type Policy,
} from "@/lib/ceremonies/uaf";
import type { UafRegistrationRow } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";

/** The FIDO test vendor (`FFFF#…`), used by Sesame's software authenticator. */
export const TEST_VENDOR_ID = "FFFF";

const ANY_SUPPORTED = {
  authenticationAlgorithms: [...SUPPORTED_SIGNATURE_ALGORITHMS],
  assertionSchemes: [ASSERTION_SCHEME],
};

const keyOf = (registration: UafRegistrationRow): MatchCriteria => ({
  aaid: [registration.aaid],
  keyIDs: [registration.keyId],
});

/** Test authenticators are disallowed unless the tenant accepts them (demo and test tenants). */
function disallowed(tenant: Tenant, extra: MatchCriteria[] = []): MatchCriteria[] | undefined {
  const list = tenant.uaf.allowTestAuthenticators
    ? extra
    : [...extra, { vendorID: [TEST_VENDOR_ID], ...ANY_SUPPORTED }];
  return list.length > 0 ? list : undefined;
}

/**
 * REG: the tenant's accepted AAIDs (or any authenticator with a supported algorithm), never a key the
 * user already registered (UAF protocol §3.4.6.1).
 */
export function registrationPolicy(tenant: Tenant, existing: readonly UafRegistrationRow[]): Policy {
  const accepted: MatchCriteria[][] =
    tenant.uaf.acceptedAaids.length > 0 ? [[{ aaid: tenant.uaf.acceptedAaids }]] : [[ANY_SUPPORTED]];
  const policy: Policy = { accepted };
  const list = disallowed(tenant, existing.slice(0, 200).map(keyOf));
  if (list) policy.disallowed = list;
  return policy;
}

/** Most keys an AUTH policy lists (the UAF policy allows 64 accepted sets). */
export const MAX_AUTH_KEYS = 64;

/** AUTH: exactly the named registrations, one accepted set each. */
export function authenticationPolicy(tenant: Tenant, registrations: readonly UafRegistrationRow[]): Policy {
  const policy: Policy = { accepted: registrations.slice(0, MAX_AUTH_KEYS).map((r) => [keyOf(r)]) };
  const list = disallowed(tenant);
  if (list) policy.disallowed = list;
  return policy;
}

/** The FacetIDs a response may come from: the tenant's UAF facets, else its web origins. */
export function trustedFacetIds(tenant: Tenant): string[] {
  return tenant.uaf.facetIds.length > 0 ? tenant.uaf.facetIds : tenant.origins;
}
