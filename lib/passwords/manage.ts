import { and, eq } from "drizzle-orm";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { passwords } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { ensurePasswordsEnabled } from "./rules";
import { findPassword } from "./store";

/** Whether the user has a password (locked or not). Setting and changing it is `setPassword`. */
export async function hasPassword(tenantId: string, userId: string): Promise<boolean> {
  return (await findPassword(tenantId, userId)) !== undefined;
}

/** Deletes the user's password row, if any (no audit: the caller records why). */
export async function deletePasswordRow(tenantId: string, userId: string): Promise<boolean> {
  const db = await executor();
  const rows = await db
    .delete(passwords)
    .where(and(eq(passwords.tenantId, tenantId), eq(passwords.userId, userId)))
    .returning({ userId: passwords.userId });
  return rows.length === 1;
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
