import { passcodeInitialize, passcodeWire } from "@/lib/contracts/public/passcodes";
import { json, preflight, route } from "@/lib/http";
import { initializePasscode } from "@/lib/accounts";
import { presentedSessionToken } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/passcode/login/initialize (deprecated): mail a 6-digit code
export const POST = route(passcodeInitialize, async ({ req, tenant, body, audit }) =>
  json(
    passcodeWire(await initializePasscode(tenant, body, presentedSessionToken(req, tenant)?.token, audit)),
  ),
);
export const OPTIONS = preflight(passcodeInitialize);
