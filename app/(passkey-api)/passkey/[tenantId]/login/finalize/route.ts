import { finalizeLogin } from "@/lib/ceremonies/webauthn";
import { loginFinalize } from "@/lib/contracts/passkey";
import { json, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /passkey/{tenantId}/login/finalize (browser, no key): verify the assertion, return a token
export const POST = route(loginFinalize, async ({ tenant, body, audit }) =>
  json(await finalizeLogin(tenant, "login", body, audit)),
);
export const OPTIONS = preflight(loginFinalize);
