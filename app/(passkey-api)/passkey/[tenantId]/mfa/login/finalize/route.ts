import { finalizeLogin } from "@/lib/ceremonies/webauthn";
import { mfaLoginFinalize } from "@/lib/contracts/passkey";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/mfa/login/finalize (apiKey): verify an MFA key's assertion, return a token
export const POST = route(mfaLoginFinalize, async ({ tenant, body, audit }) =>
  json(await finalizeLogin(tenant, "mfa-login", body, audit)),
);
