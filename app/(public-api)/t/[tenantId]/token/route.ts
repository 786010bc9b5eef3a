import { exchangeToken } from "@/lib/contracts/public/token";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";
import { cookieProof } from "@/lib/http/browser-binding";
import { exchangeOneTimeToken } from "@/lib/one-time-tokens";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/token (deprecated): exchange a one-time token for a session, in the browser that
// started the sign-in (its binding cookie)
export const POST = route(exchangeToken, async ({ req, tenant, body, audit }) => {
  const { user_id, session } = await exchangeOneTimeToken(tenant, body.value, audit, cookieProof(req));
  return withSessionHeaders(json({ user_id }), tenant, session.token);
});
export const OPTIONS = preflight(exchangeToken);
