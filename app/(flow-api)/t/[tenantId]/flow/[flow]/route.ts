import { flowByName } from "@/lib/contracts/flow";
import { flowNamed, handleFlowRequest } from "@/lib/flows";
import { preflight, presentFlowAnswer, route } from "@/lib/http";
import { bindingCookies } from "@/lib/http/browser-binding";
import { refererOf } from "@/lib/http/referer";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/flow/{flow}[?action=…]: as /t/{tenantId}/{flow}
export const POST = route(flowByName, async ({ req, tenant, params, query, body, session, audit }) =>
  presentFlowAnswer(
    await handleFlowRequest(tenant, flowNamed(params.flow), query.action, body, {
      session,
      audit,
      referer: refererOf(req),
      bindingCookies: bindingCookies(req),
    }),
    tenant,
  ),
);
export const OPTIONS = preflight(flowByName);
