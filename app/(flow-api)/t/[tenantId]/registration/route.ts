import { registrationFlow } from "@/lib/contracts/flow";
import { flowRoute } from "../flow-route";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/registration[?action=<name>@<flow id>]: the registration flow
export const { POST, OPTIONS } = flowRoute("registration", registrationFlow);
