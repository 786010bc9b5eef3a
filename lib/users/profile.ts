import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { selectUserEmails, toEmailResponse, type EmailResponse } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { deleteUserRow } from "./store";
import type { User } from "./user";

export interface Profile {
  id: string;
  user_id: string;
  emails: EmailResponse[];
  username?: string;
  created_at: string;
  updated_at: string;
}

/** `GET /me`: Hanko's profile of the signed-in user (`id` repeats `user_id` for the old SDK). */
export async function getProfile(tenant: Tenant, user: User): Promise<Profile> {
  const emails = await selectUserEmails(tenant.id, user.id);
  return {
    id: user.id,
    user_id: user.id,
    emails: emails.map(toEmailResponse),
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
    throw new AppError("FORBIDDEN", "Forbidden", {
      details: ["account deletion is disabled for this tenant"],
    });
  }
  await deleteUserRow(tenant.id, user.id);
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: user.id,
    type: "user.deleted",
    details: { userId: user.id },
  });
}
