import { adminDeleteOtp, adminGetOtp, adminOtpWire } from "@/lib/contracts/admin/otp";
import { json, noContent, route } from "@/lib/http";
import { deleteOtpOfUser, getOtpOfUser } from "@/lib/mfa";

export const dynamic = "force-dynamic";

// GET /t/{tenantId}/admin/users/{userId}/otp: the user's authenticator app (never its secret)
export const GET = route(adminGetOtp, async ({ tenant, params }) =>
  json(adminOtpWire(await getOtpOfUser(tenant.id, params.userId))),
);

// DELETE /t/{tenantId}/admin/users/{userId}/otp: remove it
export const DELETE = route(adminDeleteOtp, async ({ tenant, params, audit }) => {
  await deleteOtpOfUser(tenant.id, params.userId, audit);
  return noContent();
});
