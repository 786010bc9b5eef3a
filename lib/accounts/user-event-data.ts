import { adminUserWire } from "@/lib/wire/admin-user";
import { AppError } from "@/lib/errors";
import { getAdminUser, type AdminUser } from "./admin-user";

/** The `data` of user.* events: the admin API's User object (`GET /admin/users/{id}`). */
export function userWebhookData(user: AdminUser): unknown {
  return adminUserWire(user);
}

/**
 * The `data` of user.* events, read inside the emitting transaction (after the change; for
 * `user.delete`, before the row goes). A user the admin API does not show (a Passkey API user) is `{id}`:
 * an event never fails the change it reports.
 */
export async function userEventData(tenantId: string, userId: string): Promise<unknown> {
  try {
    return userWebhookData(await getAdminUser(tenantId, userId));
  } catch (error) {
    if (error instanceof AppError && error.code === "USER_NOT_FOUND") return { id: userId };
    throw error;
  }
}
