import { initializePublicRegistration } from "@/lib/ceremonies/webauthn";
import { webauthnRegistrationInitialize } from "@/lib/contracts/public/webauthn";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/webauthn/registration/initialize (deprecated): creation options for the signed-in user
export const POST = route(webauthnRegistrationInitialize, async ({ tenant, session, audit }) =>
  json({ publicKey: await initializePublicRegistration(tenant, session.user, audit) }),
);
export const OPTIONS = preflight(webauthnRegistrationInitialize);
