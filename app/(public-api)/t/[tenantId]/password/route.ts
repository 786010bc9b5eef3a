import { changePassword, setPassword } from "@/lib/contracts/public/passwords";
import { json, preflight, route, type RouteInput } from "@/lib/http";
import { setPasswordOfSelf } from "@/lib/accounts";

export const dynamic = "force-dynamic";

async function set({ tenant, session, body, audit }: RouteInput<typeof setPassword | typeof changePassword>) {
  const input = { userId: body.user_id, password: body.password };
  const { created } = await setPasswordOfSelf(tenant, session.user, input, audit, {
    keepSessionId: session.session.id,
  });
  return json({ user_id: session.user.id }, created ? 201 : 200);
}

// POST /t/{tenantId}/password: set (201) or replace (200) the signed-in user's password
export const POST = route(setPassword, set);
// PUT /t/{tenantId}/password (deprecated, Hanko v2): the same, `user_id` required
export const PUT = route(changePassword, set);
export const OPTIONS = preflight(setPassword, changePassword);
