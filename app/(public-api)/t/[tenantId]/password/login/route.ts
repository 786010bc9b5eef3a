import { passwordLogin } from "@/lib/contracts/public/passwords";
import { json, preflight, route, withSessionHeaders } from "@/lib/http";
import { loginWithPassword } from "@/lib/passwords";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/password/login (deprecated): check the password, start a session
export const POST = route(passwordLogin, async ({ tenant, body, audit }) => {
  const { user, session } = await loginWithPassword(
    tenant,
    { userId: body.user_id, password: body.password },
    audit,
  );
  return withSessionHeaders(json({ user_id: user.id }), tenant, session.token);
});
export const OPTIONS = preflight(passwordLogin);
