import { renameDevice } from "@/lib/uaf-requests";
import { renameUafDevice } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";
import { getTenant } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// POST /mgmt/v1/registrations/rename/{deviceId}: rename a device
export const POST = route(renameUafDevice, async ({ key, params, body, audit }) =>
  json(await renameDevice(await getTenant(key.tenantId), params.deviceId, body.newName, audit)),
);
