import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { PasswordRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { endOtherSessions } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { requirePlatformUser } from "@/lib/users";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";
import {
  checkNewPassword,
  discardPassword,
  ensurePasswordsEnabled,
  findPassword,
  hashPassword,
  normalizePassword,
  savePasswordHash,
} from "@/lib/passwords";

// The admin API's operations on a user's password, with the API key as the actor. An unknown user,
// another tenant's or a Passkey API user is USER_NOT_FOUND (`requirePlatformUser`).

const passwordNotFound = () =>
  new AppError("PASSWORD_NOT_FOUND", undefined, { details: ["the user has no password"] });

/** The user's password row (never its hash on any wire); PASSWORD_NOT_FOUND when there is none. */
export async function getPasswordOfUser(tenant: Tenant, userId: string): Promise<PasswordRow> {
  await requirePlatformUser(tenant.id, userId);
  const row = await findPassword(tenant.id, userId);
  if (!row) throw passwordNotFound();
  return row;
}

/**
 * Sets a user's password for the admin API, as Hanko: `create` refuses a user who has one (PASSWORD_EXISTS),
 * `update` one who has none (PASSWORD_NOT_FOUND). The tenant must have passwords on, and the tenant's
 * length rules apply (400). A new password clears the failure count and the lock; replacing one ends
 * all the user's sessions, as every password change does (`setPasswordOfSelf`). Audited as
 * `password.set.succeeded|failed`, the API key as the actor.
 */
export async function setPasswordOfUser(
  tenant: Tenant,
  userId: string,
  password: string,
  mode: "create" | "update",
  context: AuditContext,
): Promise<PasswordRow> {
  const type = "password.set";
  return auditFailures(tenant.id, type, context, async () => {
    ensurePasswordsEnabled(tenant);
    const normalized = normalizePassword(password);
    checkNewPassword(tenant, normalized);
    await requirePlatformUser(tenant.id, userId);
    // Hashed before the transaction: it takes tens of milliseconds and needs no database.
    const hash = await hashPassword(normalized);
    return transaction(async () => {
      await requirePlatformUser(tenant.id, userId, { lock: true });
      const existing = await findPassword(tenant.id, userId);
      if (mode === "create" && existing) {
        throw new AppError("PASSWORD_EXISTS", undefined, { details: ["the user already has a password"] });
      }
      if (mode === "update" && !existing) throw passwordNotFound();
      await savePasswordHash(tenant.id, userId, hash);
      await recordAuditEvent(tenant.id, {
        ...context,
        type: `${type}.succeeded`,
        details: { user_id: userId, created: !existing, unlocked: existing?.lockedAt != null },
      });
      if (existing) await endOtherSessions(tenant, userId, undefined, context, "password changed");
      await emitWebhookEvent(tenant.id, "user.update.password.update", () =>
        userEventData(tenant.id, userId),
      );
      return (await findPassword(tenant.id, userId))!;
    });
  });
}

/** Deletes the user's password: password login ends for the user. Audited as `password.delete.*`. */
export async function deletePasswordOfUser(
  tenant: Tenant,
  userId: string,
  context: AuditContext,
): Promise<void> {
  const type = "password.delete";
  await auditFailures(tenant.id, type, context, () =>
    transaction(async () => {
      await requirePlatformUser(tenant.id, userId, { lock: true });
      if (!(await discardPassword(tenant.id, userId))) throw passwordNotFound();
      await recordAuditEvent(tenant.id, {
        ...context,
        type: `${type}.succeeded`,
        details: { user_id: userId },
      });
    }),
  );
}
