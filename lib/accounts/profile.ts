import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { UserMetadata } from "@/lib/metadata";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";
import { loadProfileParts } from "./user-parts";
import { removeUser } from "@/lib/users";
import type { User } from "@/lib/users";

/** The signed-in user with their addresses, oldest first, and the metadata they may read (`GET /me`). */
export interface UserProfile {
  user: User;
  emails: EmailRow[];
  /** Public and unsafe metadata only (as Hanko's profile): private metadata is for the admin API. */
  metadata: Pick<UserMetadata, "public_metadata" | "unsafe_metadata">;
}

/** `GET /me`: the signed-in user, their addresses and their public and unsafe metadata. */
export async function getProfile(tenant: Tenant, user: User): Promise<UserProfile> {
  const { emails, metadata } = await loadProfileParts(tenant.id, user.id);
  const { public_metadata, unsafe_metadata } = metadata;
  return {
    user,
    emails,
    metadata: {
      ...(public_metadata ? { public_metadata } : {}),
      ...(unsafe_metadata ? { unsafe_metadata } : {}),
    },
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
  // The event (with the user as it was) and the deletion commit together.
  await transaction(async () => {
    await emitWebhookEvent(tenant.id, "user.delete", () => userEventData(tenant.id, user.id));
    await removeUser(tenant.id, user.id);
  });
  await recordAuditEvent(tenant.id, {
    ...context,
    actor: user.id,
    type: "user.deleted",
    details: { userId: user.id },
  });
}
