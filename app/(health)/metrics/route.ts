import { metrics } from "@/lib/contracts/health";
import { route } from "@/lib/http";
import { authorizeScrape, renderMetrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

// GET /metrics: Prometheus metrics (Bearer SESAME_METRICS_TOKEN when set; docs/metrics.md)
export const GET = route(metrics, async ({ req }) => {
  authorizeScrape(req.headers.get("authorization"));
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
