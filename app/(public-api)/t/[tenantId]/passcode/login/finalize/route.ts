import { passcodeFinalize, passcodeWire } from "@/lib/contracts/public/passcodes";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";
import { finalizePasscode } from "@/lib/accounts";
import { presentedSessionToken } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/passcode/login/finalize (deprecated): check the code, start a session
export const POST = route(passcodeFinalize, async ({ req, tenant, body, audit }) => {
  const { passcode, session } = await finalizePasscode(
    tenant,
    body,
    presentedSessionToken(req, tenant)?.token,
    audit,
  );
  return withSessionHeaders(json(passcodeWire(passcode)), tenant, session.token);
});
export const OPTIONS = preflight(passcodeFinalize);
