import { revokeConnectedApp } from "@/lib/contracts/public/connected-apps";
import { noContent, preflight, route } from "@/lib/http";
import * as openid from "@/lib/openid";

export const dynamic = "force-dynamic";

// DELETE /t/{tenantId}/connected_apps/{clientId}: withdraw the consent and revoke the app's tokens
export const DELETE = route(revokeConnectedApp, async ({ tenant, session, params, audit }) => {
  await openid.revokeConnectedApp(tenant.id, session.user.id, params.clientId, audit);
  return noContent();
});
export const OPTIONS = preflight(revokeConnectedApp);
