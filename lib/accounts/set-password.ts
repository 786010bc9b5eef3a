import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import {
  checkNewPassword,
  ensurePasswordsEnabled,
  findPassword,
  hashPassword,
  normalizePassword,
  savePasswordHash,
} from "@/lib/passwords";
import { endOtherSessions } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";

export interface SetPasswordInput {
  /** Hanko's body names the user; it must be the signed-in one. */
  userId?: string | undefined;
  password: string;
}

export interface SetPasswordOptions {
  /** The caller's session, kept when a replaced password ends the user's other sessions. */
  keepSessionId?: string | undefined;
}

/**
 * `POST|PUT /password`: sets the signed-in user's password, or replaces it (Hanko's `PUT /password`:
 * the session is the proof, the old password is not asked for). A new password clears the failure
 * count and the lock. `created` tells a first password (201) from a replacement (200). Replacing a
 * password (a change or a reset) ends the user's other sessions: all but `keepSessionId`.
 */
export async function setPasswordOfSelf(
  tenant: Tenant,
  user: User,
  input: SetPasswordInput,
  context: AuditContext,
  options: SetPasswordOptions = {},
): Promise<{ created: boolean }> {
  ensurePasswordsEnabled(tenant);
  const type = "password.set";
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, type, audit, async () => {
    if (input.userId !== undefined && input.userId.toLowerCase() !== user.id) {
      throw new AppError("NOT_SESSION_USER", "Forbidden", {
        details: ["user_id is not the signed-in user"],
      });
    }
    const normalized = normalizePassword(input.password);
    checkNewPassword(tenant, normalized);
    // Hashed before the transaction: it takes tens of milliseconds and needs no database.
    const hash = await hashPassword(normalized);
    return transaction(async () => {
      const existing = await findPassword(tenant.id, user.id);
      await savePasswordHash(tenant.id, user.id, hash);
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: `${type}.succeeded`,
        details: { created: !existing, unlocked: existing?.lockedAt != null },
      });
      await emitWebhookEvent(tenant.id, "user.update.password.update", () =>
        userEventData(tenant.id, user.id),
      );
      if (existing) {
        await endOtherSessions(tenant, user.id, options.keepSessionId, audit, "password changed");
      }
      return { created: !existing };
    });
  });
}
