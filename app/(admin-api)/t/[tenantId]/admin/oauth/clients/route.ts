import { createOAuthClient, listOAuthClients, oauthClientWire, requestedPage } from "@/lib/contracts/admin";
import { json, pageJson, route } from "@/lib/http";
import * as openid from "@/lib/openid";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/oauth/clients: a page of the tenant's OpenID Connect clients, oldest first
export const GET = route(listOAuthClients, async ({ req, tenant, query }) => {
  const page = requestedPage(query);
  const { clients, total } = await openid.listOAuthClients(tenant.id, page);
  return pageJson(req.url, clients.map(oauthClientWire), { ...page, total });
});

// POST /t/{tenantId}/admin/oauth/clients: a new client and its secret (shown once)
export const POST = route(createOAuthClient, async ({ tenant, body, audit }) => {
  const { client, secret } = await openid.createOAuthClient(tenant.id, body, audit);
  return json({ ...oauthClientWire(client), ...(secret ? { client_secret: secret } : {}) }, 201);
});
