import { loginFlow } from "@/lib/contracts/flow";
import { flowRoute } from "../flow-route";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/login[?action=<name>@<flow id>]: the login flow
export const { POST, OPTIONS } = flowRoute("login", loginFlow);
