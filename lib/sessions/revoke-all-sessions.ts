import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { requirePlatformUser } from "@/lib/users";
import { emitWebhookEvent, sessionEventData } from "@/lib/webhooks";
import { deleteUserSession, selectUserSessions } from "./store";

/**
 * Ends every live session of a platform user at once (the console's "revoke all"), under the user's
 * lock, in one transaction: each revoked as `revokeSessionOfUser` revokes one (a
 * `session.delete.admin.revoke` webhook event each), one `session.revoked` audit entry for all of them.
 * An unknown user, another tenant's or a Passkey API user is USER_NOT_FOUND. Returns how many ended.
 */
export async function revokeAllSessionsOfUser(
  tenantId: string,
  userId: string,
  context: AuditContext,
): Promise<number> {
  return auditFailures(tenantId, "session.revoke", context, () =>
    transaction(async () => {
      await requirePlatformUser(tenantId, userId, { lock: true });
      const ended: string[] = [];
      for (const session of await selectUserSessions(tenantId, userId)) {
        const deleted = await deleteUserSession(tenantId, userId, session.id);
        if (!deleted) continue;
        ended.push(deleted.id);
        await emitWebhookEvent(tenantId, "session.delete.admin.revoke", sessionEventData(deleted));
      }
      if (ended.length > 0) {
        await recordAuditEvent(tenantId, {
          ...context,
          type: "session.revoked",
          details: { sessionIds: ended, userId, reason: "all sessions revoked by an admin" },
        });
      }
      return ended.length;
    }),
  );
}
