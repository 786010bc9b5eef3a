import { initializeLogin } from "@/lib/ceremonies/webauthn";
import { mfaLoginInitialize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/mfa/login/initialize (apiKey): request options for the user's MFA keys
export const POST = route(mfaLoginInitialize, async ({ tenant, body, audit }) =>
  json({ publicKey: await initializeLogin(tenant, "mfa-login", { userId: body.user_id }, audit) }),
);
