import { deleteCredential, getCredential, renameCredential } from "@/lib/credentials";
import { credentialDelete, credentialDto, credentialGet, credentialUpdate } from "@/lib/contracts/passkey";
import { json, noContent, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /passkey/{tenantId}/credentials/{credentialId} (apiKey)
export const GET = route(credentialGet, async ({ tenant, params }) =>
  json(credentialDto(await getCredential(tenant.id, params.credentialId))),
);

// PATCH /passkey/{tenantId}/credentials/{credentialId} (apiKey): rename, 204
export const PATCH = route(credentialUpdate, async ({ tenant, params, body, audit }) => {
  await renameCredential(tenant.id, params.credentialId, body.name, audit);
  return noContent();
});

// DELETE /passkey/{tenantId}/credentials/{credentialId} (apiKey): 204
export const DELETE = route(credentialDelete, async ({ tenant, params, audit }) => {
  await deleteCredential(tenant.id, params.credentialId, audit);
  return noContent();
});
