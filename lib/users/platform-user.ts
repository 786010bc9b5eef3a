import { AppError } from "@/lib/errors";
import { UUID_PATTERN } from "@/lib/tenants/tenant";
import { selectUser, selectUserForUpdate } from "./store";
import type { User } from "./user";

/**
 * The tenant's platform user (no external id) an admin API route acts on, or USER_NOT_FOUND (404): an
 * unknown id, another tenant's user and a Passkey API user (managed through the Passkey API, known by
 * its `external_id`) are all the same "no such user" there, on `/users/{id}` and on every sub-resource
 * (emails, WebAuthn credentials, password, OTP, sessions, impersonation). With `lock`, takes the user's
 * row lock first (`selectUserForUpdate`: call it inside the caller's transaction, before the user's rows).
 */
export async function requirePlatformUser(
  tenantId: string,
  userId: string,
  options: { lock?: boolean } = {},
): Promise<User> {
  const notFound = () => new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
  if (!UUID_PATTERN.test(userId)) throw notFound();
  if (options.lock && !(await selectUserForUpdate(tenantId, userId))) throw notFound();
  const user = await selectUser(tenantId, userId);
  if (!user || user.externalId !== null) throw notFound();
  return user;
}
