import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { SessionRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { requirePlatformUser } from "@/lib/users";
import { emitWebhookEvent, sessionEventData } from "@/lib/webhooks";
import { startSession, type IssuedSession, type SessionClient } from "./sessions";
import { deleteUserSession, selectUserSessions } from "./store";

// The admin API's operations on a user's sessions, with the API key as the actor. An unknown user,
// another tenant's or a Passkey API user is USER_NOT_FOUND (`requirePlatformUser`).

/** The user's unexpired sessions, oldest first. */
export async function listSessionsOfUser(tenantId: string, userId: string): Promise<SessionRow[]> {
  await requirePlatformUser(tenantId, userId);
  return selectUserSessions(tenantId, userId);
}

/**
 * Ends one of the user's sessions at once (its JWT stops working), under the user's lock. Another
 * user's session is SESSION_NOT_FOUND. Audited as `session.revoke.succeeded|failed`, the API key as the actor.
 */
export async function revokeSessionOfUser(
  tenantId: string,
  userId: string,
  sessionId: string,
  context: AuditContext,
): Promise<void> {
  const type = "session.revoke";
  await auditFailures(tenantId, type, context, () =>
    transaction(async () => {
      await requirePlatformUser(tenantId, userId, { lock: true });
      const deleted = await deleteUserSession(tenantId, userId, sessionId);
      if (!deleted) throw new AppError("SESSION_NOT_FOUND", undefined, { details: ["session not found"] });
      await emitWebhookEvent(tenantId, "session.delete.admin.revoke", sessionEventData(deleted));
      await recordAuditEvent(tenantId, {
        ...context,
        type: "session.revoked",
        details: { sessionIds: [deleted.id], userId, reason: "revoked by the admin API" },
      });
    }),
  );
}

/**
 * Impersonation (admin `POST /sessions`): a session of the user exactly as a login issues it (row,
 * limit, JWT signed with the tenant's key), with no login method (`amr: []`) and no second-factor
 * check. The row keeps the client the admin names (`user_agent`, `ip_address`), else none. Audited as
 * `session.created` with the API key as the actor and `details.impersonated_user_id`; a refusal as
 * `session.impersonate.failed`.
 */
export async function impersonateUser(
  tenant: Tenant,
  userId: string,
  client: Partial<SessionClient>,
  context: AuditContext,
): Promise<IssuedSession> {
  return auditFailures(tenant.id, "session.impersonate", context, () =>
    // One transaction, so the event the webhooks will report can be written with the session.
    transaction(async () => {
      const user = await requirePlatformUser(tenant.id, userId, { lock: true });
      return startSession(
        tenant,
        user,
        [],
        { ip: client.ip ?? null, userAgent: client.userAgent ?? null },
        context,
        {
          details: { impersonated_user_id: user.id, source: "admin_api" },
          event: "session.create.admin",
          // Always marked, also for an in-process caller without an actor.
          impersonatedBy: context.actor ?? "admin",
        },
      );
    }),
  );
}
