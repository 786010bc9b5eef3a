import { rotateOAuthClientSecret } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import * as openid from "@/lib/openid";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/oauth/clients/{clientId}/secret: a new secret (shown once); the old one stops
export const POST = route(rotateOAuthClientSecret, async ({ tenant, params, audit }) => {
  const { client, secret } = await openid.rotateOAuthClientSecret(tenant.id, params.clientId, audit);
  return json({ client_id: client.clientId, client_secret: secret });
});
