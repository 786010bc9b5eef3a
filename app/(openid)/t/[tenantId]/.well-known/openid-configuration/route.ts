import { openidRoute } from "@/lib/http/openid";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/.well-known/openid-configuration: OpenID Connect Discovery of the tenant's provider
export const GET = openidRoute();
export const OPTIONS = openidRoute();
