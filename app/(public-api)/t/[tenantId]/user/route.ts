import { deleteUser, lookupUser } from "@/lib/contracts/public/users";
import { json, noContent, preflight, route, withClearedSessionCookie } from "@/lib/http";
import { deleteUserOfSelf, lookupUserByEmail } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/user (deprecated): the user of an email address
export const POST = route(lookupUser, async ({ tenant, body }) =>
  json(await lookupUserByEmail(tenant, body)),
);

// DELETE /t/{tenantId}/user (deprecated): delete the signed-in user's account
export const DELETE = route(deleteUser, async ({ tenant, session, audit }) => {
  await deleteUserOfSelf(tenant, session.user, audit);
  return withClearedSessionCookie(noContent(), tenant);
});

export const OPTIONS = preflight(lookupUser, deleteUser);
