import { adminCreateEmail, adminEmailWire, adminListEmails } from "@/lib/contracts/admin/emails";
import { createUserEmail, listUserEmails } from "@/lib/accounts";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/emails: the user's addresses
export const GET = route(adminListEmails, async ({ tenant, params }) =>
  json((await listUserEmails(tenant, params.userId)).map(adminEmailWire)),
);

// POST /t/{tenantId}/admin/users/{userId}/emails: add an address (201)
export const POST = route(adminCreateEmail, async ({ tenant, params, body, audit }) => {
  const email = await createUserEmail(
    tenant,
    params.userId,
    { address: body.address, isPrimary: body.is_primary, isVerified: body.is_verified },
    audit,
  );
  return json(adminEmailWire(email), 201);
});
