import { initializeLogin } from "@/lib/ceremonies/webauthn";
import { loginInitialize } from "@/lib/contracts/passkey";
import { authenticate, json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/login/initialize: discoverable login from the browser, or (apiKey) for one user
export const POST = route(loginInitialize, async ({ req, tenant, body, audit }) => {
  if (body.user_id !== undefined) await authenticate(req, { kind: "passkey-key" }, tenant.id);
  return json({ publicKey: await initializeLogin(tenant, "login", { userId: body.user_id }, audit) });
});
export const OPTIONS = preflight(loginInitialize);
