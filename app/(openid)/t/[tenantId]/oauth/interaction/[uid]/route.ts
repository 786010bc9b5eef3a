import { openidInteractionRoute } from "@/lib/http/openid";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/oauth/interaction/{uid}: continue a paused authorization (hosted login or consent)
export const GET = openidInteractionRoute("continue");
// POST /t/{tenantId}/oauth/interaction/{uid}: the consent page's decision (allow or deny)
export const POST = openidInteractionRoute("decide");
