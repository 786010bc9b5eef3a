import { finalizePublicLogin } from "@/lib/ceremonies/webauthn";
import { webauthnLoginFinalize } from "@/lib/contracts/public/webauthn";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/webauthn/login/finalize (deprecated): verify the assertion, start a session
export const POST = route(webauthnLoginFinalize, async ({ tenant, body, audit }) => {
  const { session, ...result } = await finalizePublicLogin(tenant, body, audit);
  return withSessionHeaders(json(result), tenant, session.token);
});
export const OPTIONS = preflight(webauthnLoginFinalize);
