import { listDevices } from "@/lib/uaf-requests";
import { deviceDto, listUafDevices } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";

export const dynamic = "force-dynamic";

// GET /mgmt/v1/registrations/{userId}: the user's registered authenticators
export const GET = route(listUafDevices, async ({ tenant, params, audit }) =>
  json((await listDevices(tenant, params.userId, audit)).map(deviceDto)),
);
