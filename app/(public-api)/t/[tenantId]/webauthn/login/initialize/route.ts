import { initializePublicLogin } from "@/lib/ceremonies/webauthn";
import { webauthnLoginInitialize } from "@/lib/contracts/public/webauthn";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/webauthn/login/initialize (deprecated): request options, discoverable without user_id
export const POST = route(webauthnLoginInitialize, async ({ tenant, body, audit }) =>
  json({ publicKey: await initializePublicLogin(tenant, { userId: body.user_id }, audit) }),
);
export const OPTIONS = preflight(webauthnLoginInitialize);
