import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import { transaction } from "@/lib/db";
import type { CeremonyKind } from "@/lib/db/schema";
import { findUserEmails } from "@/lib/emails";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import type { PublicCeremonyResult } from "./public";
import {
  generateCreationOptions,
  storeVerifiedCredential,
  verifyRegistration,
  type AnyRegistrationKind,
} from "./registration";

/**
 * A signed-in platform user's security key (a second factor, `is_mfa`): its own kind, so neither the
 * Passkey API's MFA registration nor a passkey registration finishes a ceremony started here.
 */
const SECURITY_KEY: CeremonyKind = "public-mfa-registration";
// verifyRegistration only uses the kind to consume the challenge; its type predates this kind.
const SECURITY_KEY_REGISTRATION = SECURITY_KEY as AnyRegistrationKind;

/** Audit events: Hanko's `security_key_created`, in the public API's `webauthn.*` naming. */
const AUDIT = "webauthn.security_key";

/** What the authenticator shows: the username, else the primary address, else the id. */
async function userName(tenant: Tenant, user: User): Promise<string> {
  if (user.username) return user.username;
  const emails = await findUserEmails(tenant.id, user.id);
  return (emails.find((email) => email.isPrimary) ?? emails[0])?.address ?? user.id;
}

/**
 * Creation options for a new security key of the signed-in user under the tenant's MFA policy (by
 * default a roaming, non-discoverable key, user verification preferred). `excludeCredentials` lists
 * all the user's credentials; the challenge is stored single-use for tenant, kind and user.
 */
export async function initializeSecurityKeyRegistration(
  tenant: Tenant,
  user: User,
  context: AuditContext,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const type = `${AUDIT}.initialize`;
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, type, audit, () =>
    transaction(async () => {
      const name = await userName(tenant, user);
      const options = await generateCreationOptions(tenant, SECURITY_KEY, user, {
        userName: name,
        displayName: user.displayName?.trim() || name,
      });
      await recordAuditEvent(tenant.id, { ...audit, type: `${type}.succeeded` });
      return options;
    }),
  );
}

/**
 * Verifies the attestation of a security-key ceremony the same user started (every check of
 * `verifyRegistration`) and stores the key as the user's second factor (`is_mfa`: never a passkey
 * login).
 */
export async function finalizeSecurityKeyRegistration(
  tenant: Tenant,
  user: User,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<PublicCeremonyResult> {
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, `${AUDIT}.finalize`, audit, async () => {
    const verified = await verifyRegistration(tenant, SECURITY_KEY_REGISTRATION, response, {
      userId: user.id,
    });
    return transaction(async () => {
      const credentialId = await storeVerifiedCredential(tenant, user, response, verified, {
        isMfa: true,
        type: `${AUDIT}.finalize.succeeded`,
        audit,
      });
      return { credential_id: credentialId, user_id: user.id };
    });
  });
}
