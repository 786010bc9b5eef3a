import { adminUserWire, deleteUser, getUser, updateUser } from "@/lib/contracts/admin";
import { json, noContent, route } from "@/lib/http";
import { deleteAdminUser, getAdminUser, updateAdminUser } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}: the admin User
export const GET = route(getUser, async ({ tenant, params }) =>
  json(adminUserWire(await getAdminUser(tenant.id, params.userId))),
);

// PATCH /t/{tenantId}/admin/users/{userId}: sets or clears the username and profile claims
export const PATCH = route(updateUser, async ({ tenant, params, body, audit }) => {
  const user = await updateAdminUser(
    tenant,
    params.userId,
    {
      username: body.username,
      name: body.name,
      givenName: body.given_name,
      familyName: body.family_name,
      picture: body.picture,
    },
    audit,
  );
  return json(adminUserWire(user));
});

// DELETE /t/{tenantId}/admin/users/{userId}: deletes the user and everything of theirs (204)
export const DELETE = route(deleteUser, async ({ tenant, params, audit }) => {
  await deleteAdminUser(tenant, params.userId, audit);
  return noContent();
});
