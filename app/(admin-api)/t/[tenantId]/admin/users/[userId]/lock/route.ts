import { adminUserWire, lockUser } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { setAccountLocked } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/users/{userId}/lock: ends the user's sessions and refuses their sign-ins
export const POST = route(lockUser, async ({ tenant, params, audit }) =>
  json(adminUserWire(await setAccountLocked(tenant, params.userId, true, audit))),
);
