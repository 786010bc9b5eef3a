import { adminListSessions, adminSessionWire } from "@/lib/contracts/admin/sessions";
import { json, route } from "@/lib/http";
import { listSessionsOfUser } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/sessions: the user's unexpired sessions
export const GET = route(adminListSessions, async ({ tenant, params }) =>
  json((await listSessionsOfUser(tenant.id, params.userId)).map(adminSessionWire)),
);
