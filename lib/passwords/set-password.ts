import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import type { Tenant } from "@/lib/tenants";
import { deletePasswordRow, upsertPassword } from "./store";

/**
 * A new user's first password, hashed beforehand (a registration flow's sign-up, in its transaction).
 * Records `password.set.succeeded` as `setPasswordOfSelf` does for a first password.
 */
export async function setFirstPassword(
  tenant: Tenant,
  userId: string,
  hash: string,
  context: AuditContext,
): Promise<void> {
  await upsertPassword(tenant.id, userId, hash);
  await recordAuditEvent(tenant.id, {
    ...context,
    type: "password.set.succeeded",
    details: { created: true, unlocked: false },
  });
}

/** Stores a new hash as the user's password (first or replacement): clears the failure count and the lock. */
export async function savePasswordHash(tenantId: string, userId: string, hash: string): Promise<void> {
  await upsertPassword(tenantId, userId, hash);
}

/** Removes the user's password row; false when there was none. */
export async function discardPassword(tenantId: string, userId: string): Promise<boolean> {
  return deletePasswordRow(tenantId, userId);
}
