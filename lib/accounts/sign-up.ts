import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import { findUserCredentials } from "@/lib/credentials";
import { EmailTaken, findEmailByAddress, normalizeAddress, findUserEmails } from "@/lib/emails";
import { addEmail } from "./email-changes";
import { AppError } from "@/lib/errors";
import { hasPassword } from "@/lib/passwords";
import { issueSession, findUserSessions, type IssuedSession } from "@/lib/sessions";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";
import { findUser, addUser } from "@/lib/users";
import type { User } from "@/lib/users";

/** Hanko's `CreateUserResponse` (`id` is the deprecated spelling of `user_id`). */
export interface SignUpResponse {
  id: string;
  user_id: string;
  email_id: string;
}

export interface SignedUp {
  body: SignUpResponse;
  /** Without verification the new user is logged in at once; with it, a passcode does that. */
  session?: IssuedSession;
}

/**
 * A sign-up that never finished: the user's only addresses are unverified, and it has no session,
 * credential or password. Signing up again with its address answers the same user (whoever proves
 * the address by passcode gets it), so nobody can hold an address by signing up with it.
 */
async function isPendingSignUp(tenant: Tenant, userId: string): Promise<boolean> {
  const emails = await findUserEmails(tenant.id, userId);
  if (emails.some((email) => email.verified)) return false;
  if ((await findUserCredentials(tenant.id, userId)).length > 0) return false;
  if (await hasPassword(tenant.id, userId)) return false;
  return (await findUserSessions(tenant.id, userId)).length === 0;
}

const taken = () =>
  new AppError("EMAIL_TAKEN", undefined, { details: ["a user with this email address already exists"] });

/**
 * `POST /users` `{email}`: creates a user with that primary address, unverified. With verification
 * required (the default) the client then verifies it with `POST /passcode/login/initialize` +
 * `finalize`, which logs the user in; without, the user is logged in at once (no `amr`).
 */
export async function signUpWithEmail(
  tenant: Tenant,
  input: { email: string },
  context: AuditContext,
): Promise<SignedUp> {
  return auditFailures(tenant.id, "user.signup", context, async () => {
    if (!tenant.platform.account.allowSignup) {
      throw new AppError("SIGN_UP_DISABLED", undefined, { details: ["sign-up is disabled for this tenant"] });
    }
    const address = normalizeAddress(input.email, "email");
    const requireVerification = tenant.platform.emails.requireVerification;
    const { user, email, reused } = await transaction(async () => {
      const existing = await findEmailByAddress(tenant.id, address);
      if (existing && requireVerification && !existing.verified && existing.isPrimary) {
        if (await isPendingSignUp(tenant, existing.userId)) {
          const pending = await findUser(tenant.id, existing.userId);
          if (pending) return { user: pending, email: existing, reused: true };
        }
      }
      const created: User = await addUser(tenant.id);
      // The first address, so primary; another user's mere claim on it is released.
      const row = await addEmail(tenant, created.id, {
        address,
        verified: false,
        context,
        signUp: true,
      }).catch((error) => {
        throw error instanceof EmailTaken ? taken() : error;
      });
      await emitWebhookEvent(tenant.id, "user.create", () => userEventData(tenant.id, created.id));
      return { user: created, email: row, reused: false };
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      actor: user.id,
      type: "user.signup.succeeded",
      details: { userId: user.id, emailId: email.id, again: reused },
    });
    const body = { id: user.id, user_id: user.id, email_id: email.id };
    if (requireVerification) return { body };
    return { body, session: await issueSession(tenant, user, [], context) };
  });
}
