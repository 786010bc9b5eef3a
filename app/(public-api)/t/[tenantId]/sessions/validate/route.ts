import {
  sessionValidationWire,
  validateSessionGet,
  validateSessionPost,
} from "@/lib/contracts/public/sessions";
import { json, preflight, route } from "@/lib/http";
import { presentedSessionToken, validateSessionToken } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/sessions/validate: the caller's session (Bearer or cookie); always 200
export const GET = route(validateSessionGet, async ({ req, tenant }) =>
  json(sessionValidationWire(await validateSessionToken(tenant, presentedSessionToken(req, tenant)?.token))),
);

// POST /t/{tenantId}/sessions/validate {session_token}: for backends
export const POST = route(validateSessionPost, async ({ tenant, body }) =>
  json(sessionValidationWire(await validateSessionToken(tenant, body.session_token))),
);

export const OPTIONS = preflight(validateSessionGet, validateSessionPost);
