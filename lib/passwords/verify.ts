import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { verifyDummy, verifyPassword } from "./hashing";
import { MAX_FAILED_ATTEMPTS, checkLoginPassword, ensurePasswordsEnabled, normalizePassword } from "./rules";
import { clearAttempts, findPassword, lockIfExhausted, reserveAttempt } from "./store";

/** A wrong password, or a user without one: the caller sees a bare 401, the audit log the reason. */
export class PasswordRejected extends AppError {
  constructor(readonly reason: string) {
    super("UNAUTHORIZED");
  }
}

/** The password is locked after too many consecutive failures, until the user sets a new one. */
export class PasswordLocked extends AppError {
  constructor() {
    super("FORBIDDEN", "Forbidden", {
      details: [
        `password login is locked after ${MAX_FAILED_ATTEMPTS} failed attempts; log in another way and set a new password`,
      ],
    });
  }
}

const TYPE = "password.verify";

/** Whether the user has a password (locked or not). */
export async function userHasPassword(tenant: Tenant, userId: string): Promise<boolean> {
  return (await findPassword(tenant.id, userId)) !== undefined;
}

/**
 * Checks a known user's password as one factor of a login that the caller completes (the flow API's
 * `password_login`): the failure count and the lock work exactly as for `POST /password/login`
 * (an attempt is counted before it is checked; after 100 consecutive failures the password is locked,
 * 403), but no session is issued. Audited as `password.verify.succeeded|failed`.
 */
export async function verifyUserPassword(
  tenant: Tenant,
  user: User,
  password: string,
  context: AuditContext,
): Promise<void> {
  ensurePasswordsEnabled(tenant);
  const audit = { ...context, actor: user.id };
  try {
    await check(tenant, user, password, audit);
  } catch (error) {
    await recordFailure(tenant, user, audit, error);
    throw error;
  }
  await recordAuditEvent(tenant.id, { ...audit, type: `${TYPE}.succeeded`, details: { user_id: user.id } });
}

async function check(tenant: Tenant, user: User, password: string, audit: AuditContext): Promise<void> {
  checkLoginPassword(password);
  const normalized = normalizePassword(password);
  const reserved = await reserveAttempt(tenant.id, user.id, MAX_FAILED_ATTEMPTS);
  if (!reserved) {
    if (!(await findPassword(tenant.id, user.id))) {
      // As slow as a wrong password, so timing does not tell whether the user has one.
      await verifyDummy(normalized);
      throw new PasswordRejected("the user has no password");
    }
    await lockIfExhausted(tenant.id, user.id, MAX_FAILED_ATTEMPTS);
    throw new PasswordLocked();
  }
  if (!(await verifyPassword(reserved.hash, normalized))) {
    const lockedNow =
      reserved.failedAttempts >= MAX_FAILED_ATTEMPTS &&
      (await lockIfExhausted(tenant.id, user.id, MAX_FAILED_ATTEMPTS));
    if (lockedNow) {
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: "password.locked",
        details: { user_id: user.id, failed_attempts: reserved.failedAttempts },
      });
    }
    throw new PasswordRejected(`wrong password (${reserved.failedAttempts} consecutive failures)`);
  }
  if (!(await clearAttempts(tenant.id, user.id))) throw new PasswordLocked();
}

async function recordFailure(tenant: Tenant, user: User, audit: AuditContext, error: unknown): Promise<void> {
  const reason =
    error instanceof PasswordRejected
      ? error.reason
      : error instanceof AppError
        ? [error.message, ...error.details].join(": ")
        : "internal error";
  const status = error instanceof AppError ? error.status : 500;
  try {
    await recordAuditEvent(tenant.id, {
      ...audit,
      type: `${TYPE}.failed`,
      details: { user_id: user.id, reason, status },
    });
  } catch (auditError) {
    getLogger().error({ err: auditError, type: TYPE }, "could not record a failed password check");
  }
}
