import { livez } from "@/lib/contracts/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /livez: liveness, 200 while the process runs
export const GET = route(livez, async () =>
  Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } }),
);
