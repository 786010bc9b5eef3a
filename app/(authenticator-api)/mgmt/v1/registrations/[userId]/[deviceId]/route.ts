import { deleteDevice } from "@/lib/uaf-requests";
import { deleteUafDevice } from "@/lib/contracts/authenticator";
import { noContent, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// DELETE /mgmt/v1/registrations/{userId}/{deviceId}: remove one registration
export const DELETE = route(deleteUafDevice, async ({ tenant, params, audit }) => {
  await deleteDevice(tenant, params.userId, params.deviceId, audit);
  return noContent();
});
