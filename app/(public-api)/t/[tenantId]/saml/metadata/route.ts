import { samlMetadata } from "@/lib/contracts/public/saml";
import { route } from "@/lib/http";
import { serviceProviderMetadata } from "@/lib/saml";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/saml/metadata: the tenant's SAML service provider metadata
export const GET = route(
  samlMetadata,
  async ({ tenant }) =>
    new Response(await serviceProviderMetadata(tenant.id), {
      headers: { "content-type": "application/samlmetadata+xml; charset=utf-8", "cache-control": "no-cache" },
    }),
);
