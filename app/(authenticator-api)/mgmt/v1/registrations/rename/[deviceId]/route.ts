import { renameDevice } from "@/lib/uaf-requests";
import { renameUafDevice } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// POST /mgmt/v1/registrations/rename/{deviceId}: rename a device
export const POST = route(renameUafDevice, async ({ tenant, params, body, audit }) =>
  json(await renameDevice(tenant, params.deviceId, body.newName, audit)),
);
