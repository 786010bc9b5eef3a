import { adminCreateSession } from "@/lib/contracts/admin/sessions";
import { json, route } from "@/lib/http";
import { impersonateUser } from "@/lib/sessions";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/sessions: a session token for a user (impersonation, audited)
export const POST = route(adminCreateSession, async ({ tenant, body, audit }) => {
  const { token } = await impersonateUser(
    tenant,
    body.user_id,
    { userAgent: body.user_agent, ip: body.ip_address },
    audit,
  );
  return json({ session_token: token });
});
