import { adminDeleteEmail, adminEmailWire, adminGetEmail } from "@/lib/contracts/admin/emails";
import { deleteUserEmail, getUserEmail } from "@/lib/accounts";
import { json, noContent, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/emails/{emailId}: one of the user's addresses
export const GET = route(adminGetEmail, async ({ tenant, params }) =>
  json(adminEmailWire(await getUserEmail(tenant, params.userId, params.emailId))),
);

// DELETE /t/{tenantId}/admin/users/{userId}/emails/{emailId}: remove an address (never the primary one)
export const DELETE = route(adminDeleteEmail, async ({ tenant, params, audit }) => {
  await deleteUserEmail(tenant, params.userId, params.emailId, audit);
  return noContent();
});
