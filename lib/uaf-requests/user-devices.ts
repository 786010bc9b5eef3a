import { toDevice, type Device } from "./devices";
import { selectRegistrations } from "./store";

/**
 * The UAF registrations ("devices") of a user known by its Sesame id, oldest first, for the console's
 * user page. Unlike `listDevices` (the device management API, by external id) it records nothing: a
 * page view is not an API call. The caller has already checked the user.
 */
export async function devicesOfUser(tenantId: string, userId: string): Promise<Device[]> {
  return (await selectRegistrations(tenantId, userId)).map(toDevice);
}
