import { and, asc, eq } from "drizzle-orm";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, users } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import type { User } from "./user";

export interface Profile {
  id: string;
  user_id: string;
  emails: { id: string; address: string; is_verified: boolean; is_primary: boolean }[];
  username?: string;
  created_at: string;
  updated_at: string;
}

/** `GET /me`: Hanko's profile of the signed-in user (`id` repeats `user_id` for the old SDK). */
export async function getProfile(tenant: Tenant, user: User): Promise<Profile> {
  const db = await executor();
  const rows = await db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenant.id), eq(emails.userId, user.id)))
    .orderBy(asc(emails.createdAt));
  return {
    id: user.id,
    user_id: user.id,
    emails: rows.map((row) => ({
      id: row.id,
      address: row.address,
      is_verified: row.verified,
      is_primary: row.isPrimary,
    })),
    ...(user.username ? { username: user.username } : {}),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** Deletes the user and everything of theirs (sessions, emails, credentials…), when the tenant allows it. */
export async function deleteAccount(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  return auditFailures(tenant.id, "user.delete", { ...context, actor: user.id }, () =>
    deleteAllowedAccount(tenant, user, context),
  );
}

async function deleteAllowedAccount(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  if (!tenant.platform.account.allowDeletion) {
    throw new AppError("ACCOUNT_DELETION_DISABLED", "Forbidden", {
      details: ["account deletion is disabled for this tenant"],
    });
  }
  const db = await executor();
  await db.delete(users).where(and(eq(users.tenantId, tenant.id), eq(users.id, user.id)));
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: user.id,
    type: "user.deleted",
    details: { userId: user.id },
  });
}
