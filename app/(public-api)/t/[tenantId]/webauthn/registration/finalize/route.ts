import { finalizePublicRegistration } from "@/lib/ceremonies/webauthn";
import { webauthnRegistrationFinalize } from "@/lib/contracts/public/webauthn";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/webauthn/registration/finalize (deprecated): store the signed-in user's passkey
export const POST = route(webauthnRegistrationFinalize, async ({ tenant, session, body, audit }) =>
  json(await finalizePublicRegistration(tenant, session.user, body, audit)),
);
export const OPTIONS = preflight(webauthnRegistrationFinalize);
