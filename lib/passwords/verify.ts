import { failureDetails, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { verifyDummy, verifyPassword } from "./hashing";
import {
  MAX_FAILED_ATTEMPTS,
  checkLoginPassword,
  ensurePasswordsEnabled,
  lockSeconds,
  normalizePassword,
} from "./rules";
import {
  clearAttempts,
  selectPassword,
  lockIfExhausted,
  passwordLockSecondsLeft,
  reserveAttempt,
} from "./store";

/** A wrong password, or a user without one: the caller sees a bare 401, the audit log the reason. */
export class PasswordRejected extends AppError {
  constructor(readonly reason: string) {
    super("PASSWORD_INVALID");
  }
}

/**
 * The password is locked for a while after a run of consecutive failures (longer after each run), or
 * until the user sets a new one, whichever comes first.
 */
export class PasswordLocked extends AppError {
  constructor(secondsLeft: number) {
    const wait = Math.max(1, secondsLeft);
    super("PASSWORD_LOCKED", "Forbidden", {
      details: [
        `password login is locked for ${wait} seconds after ${MAX_FAILED_ATTEMPTS} failed attempts in a row; try again later, or log in another way and set a new password`,
      ],
      retryAfterSeconds: wait,
    });
  }
}

const TYPE = "password.verify";

/**
 * Checks a known user's password as one factor of a login that the caller completes (the flow API's
 * `password_login`): the failure count and the lock work exactly as for `POST /password/login`
 * (an attempt is counted before it is checked; after 10 consecutive failures the password is locked
 * for a while, 403), but no session is issued. Audited as `password.verify.succeeded|failed`.
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
    checkLoginPassword(password);
    await checkKnownUserPassword(tenant, user.id, normalizePassword(password), audit);
  } catch (error) {
    await recordPasswordFailure(
      tenant,
      TYPE,
      audit,
      user.id,
      error,
      "could not record a failed password check",
    );
    throw error;
  }
  await recordAuditEvent(tenant.id, { ...audit, type: `${TYPE}.succeeded`, details: { user_id: user.id } });
}

/**
 * The password check of an existing user, shared by `POST /password/login` and `verifyUserPassword`:
 * an attempt is reserved (counted) before the `normalized` password is checked, so parallel guesses
 * cannot exceed the limit. A user without a password is `PasswordRejected` as slowly as a wrong
 * password (a dummy hash is verified); a locked password, or one the failure that reaches the limit
 * locks (audited `password.locked`), is `PasswordLocked`. Success clears the failure count.
 */
export async function checkKnownUserPassword(
  tenant: Tenant,
  userId: string,
  normalized: string,
  audit: AuditContext,
): Promise<void> {
  const reserved = await reserveAttempt(tenant.id, userId, MAX_FAILED_ATTEMPTS);
  if (!reserved) {
    if (!(await selectPassword(tenant.id, userId))) {
      // As slow as a wrong password, so timing does not tell whether the user has one.
      await verifyDummy(normalized);
      throw new PasswordRejected("the user has no password");
    }
    await lockIfExhausted(tenant.id, userId, MAX_FAILED_ATTEMPTS);
    throw new PasswordLocked(await passwordLockSecondsLeft(tenant.id, userId, MAX_FAILED_ATTEMPTS));
  }
  if (!(await verifyPassword(reserved.hash, normalized))) {
    const lockedNow =
      reserved.failedAttempts % MAX_FAILED_ATTEMPTS === 0 &&
      (await lockIfExhausted(tenant.id, userId, MAX_FAILED_ATTEMPTS));
    if (lockedNow) {
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: "password.locked",
        details: {
          user_id: userId,
          failed_attempts: reserved.failedAttempts,
          seconds: lockSeconds(reserved.failedAttempts),
        },
      });
    }
    throw new PasswordRejected(`wrong password (${reserved.failedAttempts} consecutive failures)`);
  }
  if (!(await clearAttempts(tenant.id, userId))) {
    throw new PasswordLocked(await passwordLockSecondsLeft(tenant.id, userId, MAX_FAILED_ATTEMPTS));
  }
}

/**
 * Audits a failed password check as `${type}.failed` for `userId`: the reason (a `PasswordRejected`'s
 * own, else the error's message and details) and its named code. An audit failure is only
 * logged (`logMessage`), so the caller's error stands.
 */
export async function recordPasswordFailure(
  tenant: Tenant,
  type: string,
  audit: AuditContext,
  userId: string,
  error: unknown,
  logMessage: string,
): Promise<void> {
  const failure = failureDetails(error);
  const reason = error instanceof PasswordRejected ? error.reason : failure.reason;
  const code = failure.code;
  try {
    await recordAuditEvent(tenant.id, {
      ...audit,
      type: `${type}.failed`,
      details: { user_id: userId, reason, code },
    });
  } catch (auditError) {
    getLogger().error({ err: auditError, type }, logMessage);
  }
}
