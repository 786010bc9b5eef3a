import type { FlowName } from "@/lib/db/schema";
import { flowNamed, handleFlowRequest } from "@/lib/flows";
import { preflight, presentFlowAnswer, route, type Contract } from "@/lib/http";
import type { loginFlow } from "@/lib/contracts/flow";
import { bindingCookies } from "@/lib/http/browser-binding";
import { refererOf } from "@/lib/http/referer";

/**
 * The route of one flow in Hanko's URL form: `POST {tenant_url}/{flow}` starts it,
 * `?action=<name>@<flow id>` runs an action. The four flow folders export these handlers.
 */
export function flowRoute(name: FlowName, contract: typeof loginFlow) {
  return {
    POST: route(contract, async ({ req, tenant, query, body, session, audit }) =>
      presentFlowAnswer(
        await handleFlowRequest(tenant, flowNamed(name), query.action, body, {
          session,
          audit,
          referer: refererOf(req),
          bindingCookies: bindingCookies(req),
        }),
        tenant,
      ),
    ),
    OPTIONS: preflight(contract as Contract),
  };
}
