import { adminDeleteSession } from "@/lib/contracts/admin/sessions";
import { noContent, route } from "@/lib/http";
import { revokeSessionOfUser } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// DELETE /t/{tenantId}/admin/users/{userId}/sessions/{sessionId}: end the session at once
export const DELETE = route(adminDeleteSession, async ({ tenant, params, audit }) => {
  await revokeSessionOfUser(tenant.id, params.userId, params.sessionId, audit);
  return noContent();
});
