import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import type { PasswordRow } from "@/lib/db/schema";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { ensurePasswordsEnabled } from "./rules";
import { deletePasswordRow, selectPassword } from "./store";

/** Whether the user has a password (locked or not). Setting and changing it is `setPasswordOfSelf`. */
export async function hasPassword(tenantId: string, userId: string): Promise<boolean> {
  return (await selectPassword(tenantId, userId)) !== undefined;
}

/**
 * Deletes the user's password (profile `password_delete`): password login ends for the user. Whether
 * the user keeps another way to log in is the caller's rule (the profile flow offers it only then).
 */
export async function deletePassword(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  const audit = { ...context, actor: user.id };
  await auditFailures(tenant.id, "password.delete", audit, async () => {
    ensurePasswordsEnabled(tenant);
    if (!(await deletePasswordRow(tenant.id, user.id))) {
      throw new AppError("PASSWORD_NOT_FOUND", undefined, { details: ["the user has no password"] });
    }
    await recordAuditEvent(tenant.id, { ...audit, type: "password.delete.succeeded" });
  });
}

/** The user's password row (its hash and when it was set); undefined when the user has none. */
export function findPassword(tenantId: string, userId: string): Promise<PasswordRow | undefined> {
  return selectPassword(tenantId, userId);
}
