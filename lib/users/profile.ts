import { and, asc, eq } from "drizzle-orm";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { executor } from "@/lib/db";
import { emails, users, type EmailRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import type { User } from "./user";

/** The signed-in user with their addresses, oldest first (`GET /me`). */
export interface UserProfile {
  user: User;
  emails: EmailRow[];
}

/** `GET /me`: the signed-in user and their addresses. */
export async function getProfile(tenant: Tenant, user: User): Promise<UserProfile> {
  const db = await executor();
  const rows = await db
    .select()
    .from(emails)
    .where(and(eq(emails.tenantId, tenant.id), eq(emails.userId, user.id)))
    .orderBy(asc(emails.createdAt));
  return { user, emails: rows };
}

/** Deletes the user and everything of theirs (sessions, emails, credentials…), when the tenant allows it. */
export async function deleteAccount(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  return auditFailures(tenant.id, "user.delete", { ...context, actor: user.id }, () =>
    deleteAllowedAccount(tenant, user, context),
  );
}

async function deleteAllowedAccount(tenant: Tenant, user: User, context: AuditContext): Promise<void> {
  if (!tenant.platform.account.allowDeletion) {
    throw new AppError("FORBIDDEN", "Forbidden", {
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
