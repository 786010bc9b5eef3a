import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import { issueSession, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, type User } from "@/lib/users";
import { verifyDummy, verifyPassword } from "./hashing";
import { MAX_FAILED_ATTEMPTS, checkLoginPassword, ensurePasswordsEnabled, normalizePassword } from "./rules";
import { clearAttempts, findPassword, lockIfExhausted, reserveAttempt } from "./store";

/** A refused login: the caller sees a bare 401, the audit log the reason. */
class LoginRefused extends AppError {
  constructor(readonly reason: string) {
    super("UNAUTHORIZED");
  }
}

const locked = () =>
  new AppError("FORBIDDEN", "Forbidden", {
    details: [
      `password login is locked after ${MAX_FAILED_ATTEMPTS} failed attempts; log in another way and set a new password`,
    ],
  });

export interface PasswordLoginInput {
  userId: string;
  password: string;
}

const TYPE = "password.login";

/**
 * `POST /password/login`: checks the user's password and starts a session (`amr: ["pwd"]`). An unknown
 * user, a user without a password and a wrong password are the same 401 and take the same time (a
 * dummy hash is verified). After 100 consecutive failures the password is locked (403) until the user
 * sets a new one; attempts are counted before they are checked, so parallel guesses cannot exceed it.
 */
export async function loginWithPassword(
  tenant: Tenant,
  input: PasswordLoginInput,
  context: AuditContext,
): Promise<{ user: User; session: IssuedSession }> {
  ensurePasswordsEnabled(tenant);
  try {
    return await attempt(tenant, input, context);
  } catch (error) {
    await recordFailure(tenant, input, context, error);
    throw error;
  }
}

async function attempt(
  tenant: Tenant,
  input: PasswordLoginInput,
  context: AuditContext,
): Promise<{ user: User; session: IssuedSession }> {
  checkLoginPassword(input.password);
  const normalized = normalizePassword(input.password);
  const user = await findUser(tenant.id, input.userId);
  if (!user) {
    await verifyDummy(normalized);
    throw new LoginRefused("unknown user");
  }
  const reserved = await reserveAttempt(tenant.id, user.id, MAX_FAILED_ATTEMPTS);
  if (!reserved) {
    if (!(await findPassword(tenant.id, user.id))) {
      await verifyDummy(normalized);
      throw new LoginRefused("the user has no password");
    }
    await lockIfExhausted(tenant.id, user.id, MAX_FAILED_ATTEMPTS);
    throw locked();
  }
  if (!(await verifyPassword(reserved.hash, normalized))) {
    const lockedNow =
      reserved.failedAttempts >= MAX_FAILED_ATTEMPTS &&
      (await lockIfExhausted(tenant.id, user.id, MAX_FAILED_ATTEMPTS));
    if (lockedNow) {
      await recordAuditEvent(tenant.id, {
        ...context,
        actor: user.id,
        type: "password.locked",
        details: { user_id: user.id, failed_attempts: reserved.failedAttempts },
      });
    }
    throw new LoginRefused(`wrong password (${reserved.failedAttempts} consecutive failures)`);
  }
  if (!(await clearAttempts(tenant.id, user.id))) throw locked();
  const audit = { ...context, actor: user.id };
  const session = await issueSession(tenant, user, ["pwd"], audit);
  await recordAuditEvent(tenant.id, {
    ...audit,
    type: `${TYPE}.succeeded`,
    details: { session_id: session.session.id },
  });
  return { user, session };
}

async function recordFailure(
  tenant: Tenant,
  input: PasswordLoginInput,
  context: AuditContext,
  error: unknown,
): Promise<void> {
  const reason =
    error instanceof LoginRefused
      ? error.reason
      : error instanceof AppError
        ? [error.message, ...error.details].join(": ")
        : "internal error";
  const status = error instanceof AppError ? error.status : 500;
  try {
    await recordAuditEvent(tenant.id, {
      ...context,
      type: `${TYPE}.failed`,
      details: { user_id: input.userId, reason, status },
    });
  } catch (auditError) {
    getLogger().error({ err: auditError, type: TYPE }, "could not record a failed password login");
  }
}
