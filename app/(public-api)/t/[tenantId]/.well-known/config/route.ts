import { publicConfig } from "@/lib/tenants/public-config";
import { wellKnownConfig } from "@/lib/contracts/public/well-known";
import { json, preflight, route } from "@/lib/http";
import { listEnabledProviders } from "@/lib/thirdparty";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/.well-known/config (deprecated): what the tenant allows, with its enabled providers' names
export const GET = route(wellKnownConfig, async ({ tenant }) =>
  json({
    ...publicConfig(tenant),
    providers: (await listEnabledProviders(tenant.id)).map((provider) => provider.slug),
  }),
);
export const OPTIONS = preflight(wellKnownConfig);
