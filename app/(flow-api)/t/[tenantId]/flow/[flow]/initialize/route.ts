import { initializeFlow } from "@/lib/contracts/flow";
import { flowNamed, startFlow } from "@/lib/flows";
import { preflight, presentFlowAnswer, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/flow/{flow}/initialize: start a flow
export const POST = route(initializeFlow, async ({ tenant, params, session, audit }) =>
  presentFlowAnswer(await startFlow(tenant, flowNamed(params.flow), { session, audit }), tenant),
);
export const OPTIONS = preflight(initializeFlow);
