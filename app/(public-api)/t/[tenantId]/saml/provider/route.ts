import { samlProvider, samlProviderWire } from "@/lib/contracts/public/saml";
import { json, route } from "@/lib/http";
import { findEnabledProviderForDomain } from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/saml/provider?domain=… (deprecated): Hanko's IdP configuration, or 404 without a body
export const GET = route(samlProvider, async ({ tenant, query }) => {
  const idp = await findEnabledProviderForDomain(tenant.id, query.domain);
  if (!idp) return new Response(null, { status: 404, headers: { "cache-control": "no-store" } });
  return json(samlProviderWire(idp, query.domain));
});
