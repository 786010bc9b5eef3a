import { connectedAppWire, listConnectedApps } from "@/lib/contracts/public/connected-apps";
import { json, preflight, route } from "@/lib/http";
import * as openid from "@/lib/openid";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/connected_apps: the OpenID clients the signed-in user consented to
export const GET = route(listConnectedApps, async ({ tenant, session }) =>
  json((await openid.listConnectedApps(tenant.id, session.user.id)).map(connectedAppWire)),
);
export const OPTIONS = preflight(listConnectedApps);
