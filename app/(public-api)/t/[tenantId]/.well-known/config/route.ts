import { publicConfig } from "@/lib/tenants/public-config";
import { wellKnownConfig } from "@/lib/contracts/public/well-known";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/.well-known/config (deprecated): what the tenant allows
export const GET = route(wellKnownConfig, async ({ tenant }) => json(publicConfig(tenant)));
export const OPTIONS = preflight(wellKnownConfig);
