import { initializeRegistration } from "@/lib/ceremonies/webauthn";
import { registrationInitialize, registrationInput } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/registration/initialize (apiKey): creation options for the user's next passkey
export const POST = route(registrationInitialize, async ({ tenant, body, audit }) => {
  const publicKey = await initializeRegistration(tenant, "registration", registrationInput(body), audit);
  return json({ publicKey });
});
