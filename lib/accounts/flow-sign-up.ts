import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { storeRegisteredCredential } from "@/lib/ceremonies/webauthn/registration";
import type { VerifiedRegistration } from "@/lib/ceremonies/webauthn/registration";
import { findCredential } from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { EmailRow } from "@/lib/db/schema";
import { EmailTaken } from "@/lib/emails";
import { addEmail } from "./email-changes";
import { AppError, type ErrorCode } from "@/lib/errors";
import { setFirstPassword } from "@/lib/passwords";
import { hashPassword } from "@/lib/passwords";
import { checkNewPassword, normalizePassword } from "@/lib/passwords";
import type { Tenant } from "@/lib/tenants";
import { emitWebhookEvent } from "@/lib/webhooks";
import { userEventData } from "./user-event-data";
import { findUserByUsername } from "@/lib/users";
import { createPlatformUser } from "@/lib/users";
import type { User } from "@/lib/users";

/** What a sign-up conflicts with: an address, a username or a credential id another user holds. */
export type SignUpConflictField = "email" | "username" | "credential";

const TAKEN: Record<SignUpConflictField, ErrorCode> = {
  email: "EMAIL_TAKEN",
  username: "USERNAME_TAKEN",
  credential: "CREDENTIAL_TAKEN",
};

/** The sign-up lost to an existing user (or to a concurrent sign-up that finished first). */
export class SignUpConflict extends AppError {
  readonly field: SignUpConflictField;

  constructor(field: SignUpConflictField) {
    super(TAKEN[field], `a user with this ${field === "credential" ? "credential" : field} already exists`);
    this.field = field;
  }
}

/** Everything a registration flow collected, written at its end and only then. */
export interface FlowSignUp {
  flowId: string;
  /** Generated when the flow started; a passkey's user handle was made from it. */
  userId: string;
  email: string;
  /** The flow proved the address with a passcode. */
  emailVerified: boolean;
  username: string | null;
  /** A passkey whose attestation was verified (not stored yet). */
  passkey?: { response: RegistrationResponseJSON; verified: VerifiedRegistration };
  /** From `prepareSignUpPassword`. */
  passwordHash?: string;
}

/** Whether a platform user has the username (case-insensitively). */
export async function usernameTaken(tenant: Tenant, username: string): Promise<boolean> {
  return (await findUserByUsername(tenant.id, username)) !== undefined;
}

/**
 * A new password checked against the tenant's rules (NFKC, length) and hashed, ready for
 * `completeFlowSignUp`; PASSWORD_TOO_SHORT or PASSWORD_TOO_LONG when it breaks one.
 */
export async function prepareSignUpPassword(tenant: Tenant, password: string): Promise<string> {
  const normalized = normalizePassword(password);
  checkNewPassword(tenant, normalized);
  return hashPassword(normalized);
}

/** The primary address; an unverified claim on it is released first (the flow proved it). */
async function insertSignUpEmail(
  tenant: Tenant,
  user: User,
  input: FlowSignUp,
  context: AuditContext,
): Promise<EmailRow> {
  const options = { address: input.email, verified: input.emailVerified, context };
  // Only a flow that proved the address takes another user's mere claim on it over.
  return addEmail(tenant, user.id, { ...options, takeOverClaim: input.emailVerified, signUp: true }).catch(
    (error) => {
      throw error instanceof EmailTaken ? new SignUpConflict("email") : error;
    },
  );
}

/** The first credential: the verified passkey or the password hash, whichever the flow collected. */
async function storeFirstCredential(
  tenant: Tenant,
  user: User,
  input: FlowSignUp,
  context: AuditContext & { actor: string },
): Promise<string | null> {
  if (input.passwordHash !== undefined) {
    await setFirstPassword(tenant, user.id, input.passwordHash, context);
  }
  if (!input.passkey) return null;
  const credentialId = input.passkey.verified.info.credential.id;
  if (await findCredential(tenant.id, credentialId)) throw new SignUpConflict("credential");
  // Stored as the public API stores a platform user's passkey (audit `webauthn.registration.…`).
  return storeRegisteredCredential(
    tenant,
    "public-registration",
    user,
    input.passkey.response,
    input.passkey.verified,
    context,
  );
}

/**
 * The end of a registration flow (Hanko's CreateUser hook): the user with its pre-generated id and
 * username, its primary address (verified when the flow proved it) and its first credential, all in
 * one transaction, so an abandoned or failed sign-up leaves nothing behind. A concurrent sign-up
 * that took the address or the username first wins: this one is rolled back and fails with
 * `SignUpConflict` (the unique indexes decide, on both drivers).
 */
export async function completeFlowSignUp(
  tenant: Tenant,
  input: FlowSignUp,
  context: AuditContext,
): Promise<User> {
  const audit = { ...context, actor: input.userId };
  return auditFailures(tenant.id, "user.signup", audit, () =>
    transaction(async () => {
      if (!tenant.platform.account.allowSignup) {
        throw new AppError("SIGN_UP_DISABLED", undefined, {
          details: ["sign-up is disabled for this tenant"],
        });
      }
      const user = await createPlatformUser(tenant.id, input.userId, input.username);
      // The id is a fresh UUID: only the username can conflict.
      if (!user) throw new SignUpConflict("username");
      const email = await insertSignUpEmail(tenant, user, input, audit);
      const credentialId = await storeFirstCredential(tenant, user, input, audit);
      await emitWebhookEvent(tenant.id, "user.create", () => userEventData(tenant.id, user.id));
      await recordAuditEvent(tenant.id, {
        ...audit,
        type: "user.signup.succeeded",
        details: {
          userId: user.id,
          emailId: email.id,
          emailVerified: email.verified,
          username: user.username,
          passkey: credentialId,
          password: input.passwordHash !== undefined,
          flowId: input.flowId,
        },
      });
      return user;
    }),
  );
}
