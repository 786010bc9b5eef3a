import { trustedFacetIds } from "./policy";
import type { Tenant } from "@/lib/tenants";

/**
 * The tenant's Trusted Facets list (FIDO AppID and Facet spec §3.1.2), for tenants whose AppID is
 * Sesame's own `/v1/uaf/trusted-facets/{tenantId}` URL: the same FacetIDs for protocol 1.0 and 1.1.
 */
export function trustedFacetsList(tenant: Tenant) {
  const ids = trustedFacetIds(tenant);
  return {
    trustedFacets: [
      { version: { major: 1, minor: 0 }, ids },
      { version: { major: 1, minor: 1 }, ids },
    ],
  };
}
