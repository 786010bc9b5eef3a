import { trustedFacetsList } from "@/lib/uaf-requests/trusted-facets";
import { getTrustedFacets } from "@/lib/contracts/authenticator/facets";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /v1/uaf/trusted-facets/{tenantId}: the Trusted Facets list for the tenant's AppID
export const GET = route(getTrustedFacets, async ({ tenant }) =>
  json(trustedFacetsList(tenant), 200, {
    "content-type": "application/fido.trusted-apps+json",
    "cache-control": "public, max-age=300",
  }),
);
export const OPTIONS = preflight(getTrustedFacets);
