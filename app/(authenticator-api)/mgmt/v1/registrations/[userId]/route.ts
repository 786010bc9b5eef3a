import { listDevices } from "@/lib/uaf-requests";
import { deviceDto, listUafDevices } from "@/lib/contracts/authenticator";
import { json, route } from "@/lib/http";
import { getTenant } from "@/lib/tenants";

export const dynamic = "force-dynamic";

// GET /mgmt/v1/registrations/{userId}: the user's registered authenticators
export const GET = route(listUafDevices, async ({ key, params, audit }) =>
  json((await listDevices(await getTenant(key.tenantId), params.userId, audit)).map(deviceDto)),
);
