import { webauthnCredentialDelete, webauthnCredentialUpdate } from "@/lib/contracts/public/webauthn";
import { deleteUserCredential, renameUserCredential } from "@/lib/credentials";
import { noContent, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// PATCH /t/{tenantId}/webauthn/credentials/{id} (deprecated): rename one of the user's credentials, 204
export const PATCH = route(webauthnCredentialUpdate, async ({ tenant, session, params, body, audit }) => {
  await renameUserCredential(tenant.id, session.user.id, params.id, body.name, audit);
  return noContent();
});

// DELETE /t/{tenantId}/webauthn/credentials/{id} (deprecated): delete one of the user's credentials, 204
export const DELETE = route(webauthnCredentialDelete, async ({ tenant, session, params, audit }) => {
  await deleteUserCredential(tenant.id, session.user.id, params.id, audit);
  return noContent();
});
export const OPTIONS = preflight(webauthnCredentialUpdate, webauthnCredentialDelete);
