import { tokenExchangeFlow } from "@/lib/contracts/flow";
import { flowRoute } from "../flow-route";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/token_exchange[?action=<name>@<flow id>]: the token_exchange flow
export const { POST, OPTIONS } = flowRoute("token_exchange", tokenExchangeFlow);
