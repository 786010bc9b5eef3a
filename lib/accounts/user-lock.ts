import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { revokeAllSessionsOfUser } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { requirePlatformUser, setUserLock } from "@/lib/users";
import { emitWebhookEvent } from "@/lib/webhooks";
import { adminViewOf, userNotFound, type AdminUser } from "./admin-user";
import { userWebhookData } from "./user-event-data";

/**
 * Locks or unlocks a platform user (the console's "Lock user"). A locked user starts no session and
 * completes no passkey ceremony on any surface (lib/users `signInNoted`, `refuseLockedUser`); locking ends
 * their sessions in the same transaction. Under the user's row lock; audited as `user.locked` or
 * `user.unlocked` (with the sessions it ended) and sent as `user.update`. Setting the state the user
 * already has changes nothing and records nothing.
 */
export async function setAccountLocked(
  tenant: Tenant,
  userId: string,
  locked: boolean,
  context: AuditContext,
): Promise<AdminUser> {
  return auditFailures(tenant.id, locked ? "user.lock" : "user.unlock", context, () =>
    transaction(async () => {
      const current = await requirePlatformUser(tenant.id, userId, { lock: true });
      if (Boolean(current.lockedAt) === locked) return adminViewOf(current);
      const updated = await setUserLock(tenant.id, current.id, locked);
      if (!updated) throw userNotFound();
      const sessionsEnded = locked ? await revokeAllSessionsOfUser(tenant.id, current.id, context) : 0;
      await recordAuditEvent(tenant.id, {
        ...context,
        type: locked ? "user.locked" : "user.unlocked",
        details: { userId: current.id, ...(locked ? { sessionsEnded } : {}) },
      });
      const view = await adminViewOf(updated);
      await emitWebhookEvent(tenant.id, "user.update", async () => userWebhookData(view));
      return view;
    }),
  );
}
