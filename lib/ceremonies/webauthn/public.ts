import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { findUserCredentials } from "@/lib/credentials";
import { findUserEmails } from "@/lib/emails";
import { transaction } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { issueSession, type IssuedSession } from "@/lib/sessions";
import { consumeRateLimit } from "@/lib/rate-limit";
import type { Tenant } from "@/lib/tenants";
import { findUser, type User } from "@/lib/users";
import { finalizeAssertion, issueAssertionOptions } from "./assertion";
import { auditPrefix } from "./policy";
import {
  issueCreationOptions,
  storeRegisteredCredential,
  verifyRegistration,
  type CreationOptions,
} from "./registration";

/** What the public API's WebAuthn finalizes answer (Hanko's v2 body). */
export interface PublicCeremonyResult {
  credential_id: string;
  user_id: string;
}

/** The name an authenticator shows for the user: the username, else the primary email, else the id. */
async function displayNames(tenant: Tenant, user: User): Promise<{ userName: string; displayName: string }> {
  const emails = await findUserEmails(tenant.id, user.id);
  const email = emails.find((entry) => entry.isPrimary) ?? emails[0];
  const userName = user.username || email?.address || user.id;
  return { userName, displayName: user.displayName?.trim() || userName };
}

/**
 * `POST /webauthn/registration/initialize`: creation options for a new passkey of the signed-in user,
 * under the tenant's passkey policy. The user handle is the user's stable handle (`userHandleOf`).
 */
export async function initializePublicRegistration(
  tenant: Tenant,
  user: User,
  context: AuditContext,
): Promise<CreationOptions> {
  const type = `${auditPrefix("public-registration")}.initialize`;
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, type, audit, () =>
    transaction(async () => {
      const options = await issueCreationOptions(
        tenant,
        "public-registration",
        user,
        await displayNames(tenant, user),
      );
      await recordAuditEvent(tenant.id, { ...audit, type: `${type}.succeeded` });
      return options;
    }),
  );
}

/**
 * `POST /webauthn/registration/finalize`: verifies the attestation of a ceremony the same user started
 * and stores the passkey.
 */
export async function finalizePublicRegistration(
  tenant: Tenant,
  user: User,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<PublicCeremonyResult> {
  const kind = "public-registration";
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, `${auditPrefix(kind)}.finalize`, audit, async () => {
    const verified = await verifyRegistration(tenant, kind, response, { userId: user.id });
    return transaction(async () => {
      const credentialId = await storeRegisteredCredential(tenant, kind, user, response, verified, audit);
      return { credential_id: credentialId, user_id: user.id };
    });
  });
}

/**
 * `POST /webauthn/login/initialize`: request options. Without a user it is a discoverable login; with
 * one (Hanko's behaviour) `allowCredentials` lists the user's passkeys, or, when the user has none,
 * the login is discoverable after all. An unknown user is a 400.
 */
export async function initializePublicLogin(
  tenant: Tenant,
  input: { userId?: string | undefined },
  context: AuditContext,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const type = `${auditPrefix("public-login")}.initialize`;
  // No key, no session: anyone may ask, so each client is bounded before anything is stored.
  await consumeRateLimit(tenant, "webauthn_login", { ip: context.ip ?? null, audit: context });
  return auditFailures(tenant.id, type, context, async () => {
    let user: User | undefined;
    let credentials = null;
    if (input.userId !== undefined) {
      user = await findUser(tenant.id, input.userId);
      if (!user) throw new AppError("USER_UNKNOWN", "user not found");
      const passkeys = await findUserCredentials(tenant.id, user.id, { mfa: false });
      if (passkeys.length > 0) credentials = passkeys;
    }
    const options = await issueAssertionOptions(tenant, "public-login", {
      userId: credentials ? (user?.id ?? null) : null,
      credentials,
    });
    await recordAuditEvent(tenant.id, {
      ...context,
      type: `${type}.succeeded`,
      actor: user?.id ?? context.actor,
      details: { discoverable: credentials === null },
    });
    return options;
  });
}

/**
 * `POST /webauthn/login/finalize`: verifies the assertion (every check of the Passkey API's login; MFA
 * keys are refused) and starts a session (`amr: ["passkey"]`) for the credential's owner, in the same
 * transaction as the sign-count update.
 */
export async function finalizePublicLogin(
  tenant: Tenant,
  response: AuthenticationResponseJSON,
  context: AuditContext,
): Promise<PublicCeremonyResult & { session: IssuedSession }> {
  const kind = "public-login";
  return auditFailures(tenant.id, `${auditPrefix(kind)}.finalize`, context, () =>
    finalizeAssertion(tenant, kind, response, context, async ({ credential, owner: user }) => {
      if (!user) throw new AppError("CEREMONY_VERIFICATION_FAILED");
      const session = await issueSession(tenant, user, ["passkey"], { ...context, actor: user.id });
      return {
        result: { credential_id: credential.id, user_id: user.id, session },
        details: { session_id: session.session.id },
      };
    }),
  );
}
