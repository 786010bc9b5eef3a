import { finalizeFlow } from "@/lib/contracts/flow";
import { finalizeAction, flowNamed, runFlowAction } from "@/lib/flows";
import { preflight, presentFlowAnswer, route } from "@/lib/http";
import { bindingCookies } from "@/lib/http/browser-binding";
import { refererOf } from "@/lib/http/referer";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/flow/{flow}/finalize: run an action (named in ?action= or in the body)
export const POST = route(finalizeFlow, async ({ req, tenant, params, query, body, session, audit }) =>
  presentFlowAnswer(
    await runFlowAction(tenant, flowNamed(params.flow), finalizeAction(query.action, body) ?? "", body, {
      session,
      audit,
      referer: refererOf(req),
      bindingCookies: bindingCookies(req),
    }),
    tenant,
  ),
);
export const OPTIONS = preflight(finalizeFlow);
