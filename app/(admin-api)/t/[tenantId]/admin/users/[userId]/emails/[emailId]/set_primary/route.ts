import { adminSetPrimaryEmail } from "@/lib/contracts/admin/emails";
import { setUserPrimaryEmail } from "@/lib/accounts";
import { noContent, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /t/{tenantId}/admin/users/{userId}/emails/{emailId}/set_primary: make the address primary
export const POST = route(adminSetPrimaryEmail, async ({ tenant, params, audit }) => {
  await setUserPrimaryEmail(tenant, params.userId, params.emailId, audit);
  return noContent();
});
