import { deleteOAuthClient, getOAuthClient, oauthClientWire, updateOAuthClient } from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import * as openid from "@/lib/openid";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/oauth/clients/{clientId}
export const GET = route(getOAuthClient, async ({ tenant, params }) =>
  json(oauthClientWire(await openid.getOAuthClient(tenant.id, params.clientId))),
);

// PATCH /t/{tenantId}/admin/oauth/clients/{clientId}: change the fields given (null removes one)
export const PATCH = route(updateOAuthClient, async ({ tenant, params, body, audit }) =>
  json(oauthClientWire(await openid.updateOAuthClient(tenant.id, params.clientId, body, audit))),
);

// DELETE /t/{tenantId}/admin/oauth/clients/{clientId}: the client and its consents
export const DELETE = route(deleteOAuthClient, async ({ tenant, params, audit }) => {
  await openid.deleteOAuthClient(tenant.id, params.clientId, audit);
  return noContent();
});
