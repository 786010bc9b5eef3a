import { adminDeleteCredential, adminGetCredential } from "@/lib/contracts/admin/credentials";
import { adminCredentialWire } from "@/lib/wire/credentials";
import { deleteCredentialOfUser, getCredentialOfUser } from "@/lib/credentials";
import { json, noContent, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/webauthn_credentials/{credentialId}: one credential
export const GET = route(adminGetCredential, async ({ tenant, params }) =>
  json(adminCredentialWire(await getCredentialOfUser(tenant.id, params.userId, params.credentialId))),
);

// DELETE /t/{tenantId}/admin/users/{userId}/webauthn_credentials/{credentialId}: delete it
export const DELETE = route(adminDeleteCredential, async ({ tenant, params, audit }) => {
  await deleteCredentialOfUser(tenant.id, params.userId, params.credentialId, audit);
  return noContent();
});
