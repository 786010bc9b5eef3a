import { readyz } from "@/lib/contracts/health";
import { checkReadiness } from "@/lib/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /readyz: readiness, 200 when the database answers and migrations are applied, else 503 (at once
// while the process shuts down)
export const GET = route(readyz, async () => {
  const { ready, draining, checks } = await checkReadiness();
  return Response.json(
    { status: ready ? "ready" : draining ? "draining" : "unavailable", checks },
    { status: ready ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
});
