import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { selectUserEmails } from "@/lib/emails";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent, userEventData } from "@/lib/webhooks";
import { deleteUserRow } from "./store";
import type { User } from "./user";

/** The signed-in user with their addresses, oldest first (`GET /me`). */
export interface UserProfile {
  user: User;
  emails: EmailRow[];
}

/** `GET /me`: the signed-in user and their addresses. */
export async function getProfile(tenant: Tenant, user: User): Promise<UserProfile> {
  return { user, emails: await selectUserEmails(tenant.id, user.id) };
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
  // The event (with the user as it was) and the deletion commit together.
  await transaction(async () => {
    await emitWebhookEvent(tenant.id, "user.delete", () => userEventData(tenant.id, user.id));
    await deleteUserRow(tenant.id, user.id);
  });
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: user.id,
    type: "user.deleted",
    details: { userId: user.id },
  });
}
