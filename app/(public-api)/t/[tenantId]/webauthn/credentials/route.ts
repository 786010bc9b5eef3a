import { credentialWire } from "@/lib/wire/credentials";
import { webauthnCredentialsList } from "@/lib/contracts/public/webauthn";
import { listUserCredentials } from "@/lib/credentials";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/webauthn/credentials (deprecated): the signed-in user's credentials
export const GET = route(webauthnCredentialsList, async ({ tenant, session }) =>
  json((await listUserCredentials(tenant.id, session.user.id)).map(credentialWire)),
);
export const OPTIONS = preflight(webauthnCredentialsList);
