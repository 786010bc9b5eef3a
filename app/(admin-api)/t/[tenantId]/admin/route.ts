import { status } from "@/lib/contracts/admin";
import { checkDatabase } from "@/lib/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/: status page (admin key); the spec's 500 when the database does not answer
// (the contract's databaseUnavailableAs500: every other endpoint answers 503 with Retry-After)
export const GET = route(status, async () => {
  await checkDatabase();
  return new Response("API is running", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
});
