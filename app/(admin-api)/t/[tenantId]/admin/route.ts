import { status } from "@/lib/contracts/admin";
import { AppError } from "@/lib/errors";
import { checkDatabase } from "@/lib/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/: status page (admin key); the spec's 500 when the database does not answer
// (every other endpoint answers database trouble with 503 and Retry-After)
export const GET = route(status, async () => {
  await checkDatabase().catch((error: unknown) => {
    throw new AppError("INTERNAL", undefined, { cause: error });
  });
  return new Response("API is running", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
});
