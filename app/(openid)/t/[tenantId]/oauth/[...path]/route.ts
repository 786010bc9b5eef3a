import { openidRoute } from "@/lib/http/openid";

export const dynamic = "force-dynamic";

// GET|POST /t/{tenantId}/oauth/…: the tenant's OpenID Provider (authorize, token, userinfo, jwks, register,
// revoke, introspect, logout), answered by oidc-provider (docs/openid-provider.md)
export const GET = openidRoute();
export const POST = openidRoute();
export const OPTIONS = openidRoute();
