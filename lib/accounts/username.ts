import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import {
  changeUsername,
  ensureUsernames,
  findUserByUsername,
  isUniqueViolation,
  normalizeUsername,
  UsernameTaken,
  type User,
} from "@/lib/users";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";

/**
 * Sets or changes the user's username (profile `username_create` / `username_update`). Unique among
 * the tenant's platform users: checked first, and the unique index decides a race.
 */
export async function setUsername(
  tenant: Tenant,
  user: User,
  raw: string,
  context: AuditContext,
): Promise<User> {
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, "username.set", audit, async () => {
    ensureUsernames(tenant, user);
    const username = normalizeUsername(tenant, raw);
    const holder = await findUserByUsername(tenant.id, username);
    if (holder && holder.id !== user.id) throw new UsernameTaken();
    let updated: User | undefined;
    try {
      const event = user.username ? "user.update.username.update" : "user.update.username.create";
      updated = await transaction(async () => {
        const row = await changeUsername(tenant.id, user.id, username);
        if (row) await emitWebhookEvent(tenant.id, event, () => userEventData(tenant.id, user.id));
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new UsernameTaken();
      throw error;
    }
    if (!updated) throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
    await recordAuditEvent(tenant.id, {
      ...audit,
      type: "username.changed",
      details: { userId: user.id, username, previous: user.username },
    });
    return updated;
  });
}

/** Removes the user's username (profile `username_delete`); not when the tenant requires one. */
export async function deleteUsername(tenant: Tenant, user: User, context: AuditContext): Promise<User> {
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, "username.delete", audit, async () => {
    ensureUsernames(tenant, user);
    if (tenant.platform.username.required) {
      throw new AppError("USERNAME_REQUIRED", undefined, { details: ["the tenant requires a username"] });
    }
    const updated = await transaction(async () => {
      const row = await changeUsername(tenant.id, user.id, null);
      if (row)
        await emitWebhookEvent(tenant.id, "user.update.username.delete", () =>
          userEventData(tenant.id, user.id),
        );
      return row;
    });
    if (!updated) throw new AppError("USER_NOT_FOUND", undefined, { details: ["user not found"] });
    await recordAuditEvent(tenant.id, {
      ...audit,
      type: "username.deleted",
      details: { userId: user.id, username: user.username },
    });
    return updated;
  });
}
