import { finalizeRegistration } from "@/lib/ceremonies/webauthn";
import { mfaRegistrationFinalize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/mfa/registration/finalize (apiKey): store an MFA key
export const POST = route(mfaRegistrationFinalize, async ({ tenant, body, audit }) =>
  json(await finalizeRegistration(tenant, "mfa-registration", body, audit)),
);
