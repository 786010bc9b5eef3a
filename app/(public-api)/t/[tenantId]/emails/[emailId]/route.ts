import { deleteEmail } from "@/lib/contracts/public/emails";
import { deleteEmailOfSelf } from "@/lib/accounts";
import { noContent, preflight, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// DELETE /t/{tenantId}/emails/{emailId} (deprecated): remove an address (never the primary one)
export const DELETE = route(deleteEmail, async ({ tenant, session, params, audit }) => {
  await deleteEmailOfSelf(tenant, session.user, params.emailId, audit);
  return noContent();
});
export const OPTIONS = preflight(deleteEmail);
