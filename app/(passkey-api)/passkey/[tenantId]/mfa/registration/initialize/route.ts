import { initializeRegistration } from "@/lib/ceremonies/webauthn";
import { mfaRegistrationInitialize, registrationInput } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/mfa/registration/initialize (apiKey): creation options for an MFA key
export const POST = route(mfaRegistrationInitialize, async ({ tenant, body, audit }) => {
  const publicKey = await initializeRegistration(tenant, "mfa-registration", registrationInput(body), audit);
  return json({ publicKey });
});
