import { and, eq, isNull, sql } from "drizzle-orm";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { executor, transaction } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent, userEventData } from "@/lib/webhooks";
import { USERNAME_PATTERN, findUserByUsername } from "./lookup";
import { toUser, type User } from "./user";

/** Another platform user of the tenant has this username (compared case-insensitively). */
export class UsernameTaken extends AppError {
  constructor() {
    super("USERNAME_TAKEN", "username already exists", { details: ["another user has this username"] });
  }
}

/** A username outside the tenant's length bounds or the allowed characters. */
export class InvalidUsername extends AppError {
  constructor(detail: string) {
    super("USERNAME_INVALID", "invalid username", { details: [detail] });
  }
}

/** Usernames answer only for tenants that enable them, and only for platform users (no external id). */
function ensureUsernames(tenant: Tenant, user: User): void {
  if (!tenant.platform.username.enabled) {
    throw new AppError("USERNAME_NOT_ENABLED", undefined, {
      details: ["usernames are not enabled for this tenant"],
    });
  }
  if (user.externalId !== null) {
    throw new AppError("USERNAME_NOT_ENABLED", undefined, {
      details: ["only platform users have a username here"],
    });
  }
}

/**
 * The username as kept: trimmed and lower-cased (Hanko's rule), within the tenant's length bounds in
 * code points, letters and digits first, then also `_`, `-` and `.`.
 */
export function normalizeUsername(tenant: Tenant, raw: string): string {
  const username = raw.trim().toLowerCase();
  const { minLength, maxLength } = tenant.platform.username;
  const length = [...username].length;
  if (length < minLength || length > maxLength) {
    throw new InvalidUsername(`must be ${minLength} to ${maxLength} characters long`);
  }
  if (!USERNAME_PATTERN.test(username)) {
    throw new InvalidUsername("letters, digits, '_', '-' and '.' only, starting with a letter or digit");
  }
  return username;
}

/** A unique-index violation (Postgres and PGlite), possibly wrapped by the driver. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

async function updateUsername(tenantId: string, userId: string, username: string | null) {
  const db = await executor();
  const [row] = await db
    .update(users)
    .set({ username, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId), isNull(users.externalId)))
    .returning();
  return row ? toUser(row) : undefined;
}

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
        const row = await updateUsername(tenant.id, user.id, username);
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
      const row = await updateUsername(tenant.id, user.id, null);
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
