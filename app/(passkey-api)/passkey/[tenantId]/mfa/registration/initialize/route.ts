import { initializeRegistration } from "@/lib/ceremonies/webauthn";
import { mfaRegistrationInitialize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/mfa/registration/initialize (apiKey): creation options for an MFA key
export const POST = route(mfaRegistrationInitialize, async ({ tenant, body, audit }) => {
  const publicKey = await initializeRegistration(
    tenant,
    "mfa-registration",
    { userId: body.user_id, username: body.username, displayName: body.display_name, icon: body.icon },
    audit,
  );
  return json({ publicKey });
});
