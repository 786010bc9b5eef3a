import { exchangeToken } from "@/lib/contracts/public/token";
import { json, preflight, route } from "@/lib/http";
import { exchangeOneTimeToken } from "@/lib/one-time-tokens";
import { sessionHeaders } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/token (deprecated): exchange a one-time token for a session
export const POST = route(exchangeToken, async ({ tenant, body, audit }) => {
  const { user_id, session } = await exchangeOneTimeToken(tenant, body.value, audit);
  const response = json({ user_id });
  sessionHeaders(tenant, session.token).forEach((value, name) => response.headers.append(name, value));
  return response;
});
export const OPTIONS = preflight(exchangeToken);
