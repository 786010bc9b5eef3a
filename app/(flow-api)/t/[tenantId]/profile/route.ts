import { profileFlow } from "@/lib/contracts/flow";
import { flowRoute } from "../flow-route";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/profile[?action=<name>@<flow id>]: the profile flow
export const { POST, OPTIONS } = flowRoute("profile", profileFlow);
