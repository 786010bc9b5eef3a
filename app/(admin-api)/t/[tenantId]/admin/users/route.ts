import { adminUserWire, createUser, listUsers, requestedPage } from "@/lib/contracts/admin";
import { json, pageJson, route } from "@/lib/http";
import { createAdminUser, listAdminUsers } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users: a page of the tenant's platform users, X-Total-Count and Link headers
export const GET = route(listUsers, async ({ req, tenant, query }) => {
  const page = requestedPage(query);
  const { users, total } = await listAdminUsers(tenant.id, {
    ...page,
    userIds: query.user_id,
    email: query.email,
    username: query.username,
    direction: query.sort_direction,
  });
  return pageJson(req.url, users.map(adminUserWire), { ...page, total });
});

// POST /t/{tenantId}/admin/users: creates a platform user with addresses and/or a username (200)
export const POST = route(createUser, async ({ tenant, body, audit }) => {
  const user = await createAdminUser(
    tenant,
    {
      id: body.id,
      emails: body.emails.map((email) => ({
        address: email.address,
        isPrimary: email.is_primary,
        isVerified: email.is_verified,
      })),
      username: body.username,
      createdAt: body.created_at ? new Date(body.created_at) : undefined,
    },
    audit,
  );
  return json(adminUserWire(user));
});
