import { exchangeToken } from "@/lib/contracts/public/token";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";
import { exchangeOneTimeToken } from "@/lib/one-time-tokens";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/token (deprecated): exchange a one-time token for a session
export const POST = route(exchangeToken, async ({ tenant, body, audit }) => {
  const { user_id, session } = await exchangeOneTimeToken(tenant, body.value, audit);
  return withSessionHeaders(json({ user_id }), tenant, session.token);
});
export const OPTIONS = preflight(exchangeToken);
