import { initializeRegistration } from "@/lib/ceremonies/webauthn";
import { registrationInitialize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/registration/initialize (apiKey): creation options for the user's next passkey
export const POST = route(registrationInitialize, async ({ tenant, body, audit }) => {
  const publicKey = await initializeRegistration(
    tenant,
    "registration",
    { userId: body.user_id, username: body.username, displayName: body.display_name, icon: body.icon },
    audit,
  );
  return json({ publicKey });
});
