import { recordAuditEvent, type AuditContext } from "@/lib/audit";
import { issueSession, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { findUser, type User } from "@/lib/users";
import { verifyDummy } from "./hashing";
import { checkLoginPassword, ensurePasswordsEnabled, normalizePassword } from "./rules";
import { PasswordRejected, checkKnownUserPassword, recordPasswordFailure } from "./verify";

export interface PasswordLoginInput {
  userId: string;
  password: string;
}

const TYPE = "password.login";

/**
 * `POST /password/login`: checks the user's password and starts a session (`amr: ["pwd"]`). An unknown
 * user, a user without a password and a wrong password are the same 401 and take the same time (a
 * dummy hash is verified). After 10 consecutive failures the password is locked (403) for a minute,
 * twice as long after each further 10 (at most an hour), or until the user sets a new one; attempts
 * are counted before they are checked, so parallel guesses cannot exceed a run.
 * A user with a second factor the tenant enforces gets no session: 403 `SECOND_FACTOR_REQUIRED` (use
 * the flow API, which asks for the second factor).
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
    await recordPasswordFailure(
      tenant,
      TYPE,
      context,
      input.userId,
      error,
      "could not record a failed password login",
    );
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
    throw new PasswordRejected("unknown user");
  }
  const audit = { ...context, actor: user.id };
  await checkKnownUserPassword(tenant, user.id, normalized, audit);
  const session = await issueSession(tenant, user, ["pwd"], audit);
  await recordAuditEvent(tenant.id, {
    ...audit,
    type: `${TYPE}.succeeded`,
    details: { session_id: session.session.id },
  });
  return { user, session };
}
