import { deleteMe, getMe, profileWire } from "@/lib/contracts/public/sessions";
import { json, noContent, preflight, route, withClearedSessionCookie } from "@/lib/http";
import { deleteAccount, getProfile } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/me: the signed-in user
export const GET = route(getMe, async ({ tenant, session }) =>
  json(profileWire(await getProfile(tenant, session.user))),
);

// DELETE /t/{tenantId}/me: delete the account (when the tenant allows it)
export const DELETE = route(deleteMe, async ({ tenant, session, audit }) => {
  await deleteAccount(tenant, session.user, audit);
  return withClearedSessionCookie(noContent(), tenant);
});

export const OPTIONS = preflight(getMe, deleteMe);
