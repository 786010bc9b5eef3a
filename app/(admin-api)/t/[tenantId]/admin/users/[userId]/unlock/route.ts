import { adminUserWire, unlockUser } from "@/lib/contracts/admin";
import { json, route } from "@/lib/http";
import { setAccountLocked } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/users/{userId}/unlock: lets a locked user sign in again
export const POST = route(unlockUser, async ({ tenant, params, audit }) =>
  json(adminUserWire(await setAccountLocked(tenant, params.userId, false, audit))),
);
