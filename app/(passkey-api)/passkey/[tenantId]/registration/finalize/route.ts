import { finalizeRegistration } from "@/lib/ceremonies/webauthn";
import { registrationFinalize } from "@/lib/contracts/passkey";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/registration/finalize (browser, no key): verify the attestation, store the passkey
export const POST = route(registrationFinalize, async ({ tenant, body, audit }) =>
  json(await finalizeRegistration(tenant, "registration", body, audit)),
);
export const OPTIONS = preflight(registrationFinalize);
