import {
  adminCreatePassword,
  adminDeletePassword,
  adminGetPassword,
  adminPasswordWire,
  adminUpdatePassword,
} from "@/lib/contracts/admin/passwords";
import { json, noContent, route } from "@/lib/http";
import { deletePasswordOfUser, getPasswordOfUser, setPasswordOfUser } from "@/lib/accounts";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/password: the user's password (never its hash)
export const GET = route(adminGetPassword, async ({ tenant, params }) =>
  json(adminPasswordWire(await getPasswordOfUser(tenant, params.userId))),
);

// POST /t/{tenantId}/admin/users/{userId}/password: a first password (409 when the user has one)
export const POST = route(adminCreatePassword, async ({ tenant, params, body, audit }) =>
  json(adminPasswordWire(await setPasswordOfUser(tenant, params.userId, body.password, "create", audit))),
);

// PUT /t/{tenantId}/admin/users/{userId}/password: replace the password (404 when the user has none)
export const PUT = route(adminUpdatePassword, async ({ tenant, params, body, audit }) =>
  json(adminPasswordWire(await setPasswordOfUser(tenant, params.userId, body.password, "update", audit))),
);

// DELETE /t/{tenantId}/admin/users/{userId}/password: remove the password
export const DELETE = route(adminDeletePassword, async ({ tenant, params, audit }) => {
  await deletePasswordOfUser(tenant, params.userId, audit);
  return noContent();
});
