import { jwks } from "@/lib/contracts/passkey";
import { preflight, route } from "@/lib/http";
import { getJwks } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// GET /passkey/{tenantId}/.well-known/jwks.json: public keys that verify finalize tokens; cacheable
export const GET = route(jwks, async ({ tenant }) =>
  Response.json(await getJwks(tenant.id), { headers: { "cache-control": "public, max-age=600" } }),
);
export const OPTIONS = preflight(jwks);
