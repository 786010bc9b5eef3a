import { wellKnownJwks } from "@/lib/contracts/public/well-known";
import { json, preflight, route } from "@/lib/http";
import { getJwks } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/.well-known/jwks: the keys that sign session JWTs
export const GET = route(wellKnownJwks, async ({ tenant }) =>
  json(await getJwks(tenant.id), 200, { "cache-control": "public, max-age=600" }),
);
export const OPTIONS = preflight(wellKnownJwks);
