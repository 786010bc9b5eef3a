import { deleteDevice } from "@/lib/uaf-requests";
import { deleteUafDevice } from "@/lib/contracts/authenticator";
import { noContent, route } from "@/lib/http";
import { getTenant } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// DELETE /mgmt/v1/registrations/{userId}/{deviceId}: remove one registration
export const DELETE = route(deleteUafDevice, async ({ key, params, audit }) => {
  await deleteDevice(await getTenant(key.tenantId), params.userId, params.deviceId, audit);
  return noContent();
});
