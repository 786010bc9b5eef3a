import { getUser, publicUserWire } from "@/lib/contracts/public/users";
import { json, preflight, route } from "@/lib/http";
import { getUserWithCredentials } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/users/{userId} (deprecated): the signed-in user, by id
export const GET = route(getUser, async ({ tenant, params, session }) =>
  json(publicUserWire(await getUserWithCredentials(tenant, session.user, params.userId))),
);
export const OPTIONS = preflight(getUser);
