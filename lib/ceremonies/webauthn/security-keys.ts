import {
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import {
  authenticatorName,
  defaultCredentialName,
  insertCredential,
  selectUserCredentials,
} from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { CeremonyKind } from "@/lib/db/schema";
import { selectUserEmails } from "@/lib/emails/store";
import { BadRequest } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import type { User } from "@/lib/users";
import { storeChallenge } from "./challenges";
import { SUPPORTED_ALGORITHMS, timeoutMs } from "./policy";
import type { PublicCeremonyResult } from "./public";
import { verifyRegistration, type AnyRegistrationKind, type VerifiedRegistration } from "./registration";
import { userHandleOf } from "./user-handle";

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
  const emails = await selectUserEmails(tenant.id, user.id);
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
      const policy = tenant.mfaPolicy;
      const name = await userName(tenant, user);
      const existing = await selectUserCredentials(tenant.id, user.id);
      const options = await generateRegistrationOptions({
        rpName: tenant.rpName,
        rpID: tenant.rpId,
        userName: name,
        userDisplayName: user.displayName?.trim() || name,
        userID: userHandleOf(user),
        timeout: timeoutMs(tenant),
        attestationType: policy.attestation === "none" ? "none" : "direct",
        excludeCredentials: existing.map((credential) => ({ id: credential.id })),
        authenticatorSelection: {
          residentKey: policy.residentKey,
          userVerification: policy.userVerification,
          ...(policy.attachment ? { authenticatorAttachment: policy.attachment } : {}),
        },
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      });
      await storeChallenge({
        tenantId: tenant.id,
        kind: SECURITY_KEY,
        challenge: options.challenge,
        userId: user.id,
        policy: "mfa",
        userVerification: policy.userVerification,
        ttlSeconds: tenant.challengeTtlSeconds,
      });
      await recordAuditEvent(tenant.id, { ...audit, type: `${type}.succeeded` });
      return { ...options, attestation: policy.attestation };
    }),
  );
}

/** Stores a verified security key of `user` (`is_mfa`: never a passkey login) with the success event. */
async function storeSecurityKey(
  tenant: Tenant,
  user: User,
  response: RegistrationResponseJSON,
  { info }: VerifiedRegistration,
  audit: AuditContext,
): Promise<string> {
  const credentialId = info.credential.id;
  const stored = await insertCredential({
    tenantId: tenant.id,
    id: credentialId,
    userId: user.id,
    name: defaultCredentialName(credentialId, authenticatorName(info.aaguid)),
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    signCount: info.credential.counter,
    transports: response.response.transports ?? [],
    aaguid: info.aaguid,
    attestationType: info.fmt,
    backupEligible: info.credentialDeviceType === "multiDevice",
    backupState: info.credentialBackedUp,
    userVerified: info.userVerified,
    isMfa: true,
  });
  if (!stored) {
    throw new BadRequest("failed to validate attestation", {
      details: ["this credential is already registered"],
    });
  }
  await recordAuditEvent(tenant.id, {
    ...audit,
    type: `${AUDIT}.finalize.succeeded`,
    details: { credential_id: credentialId, aaguid: info.aaguid, fmt: info.fmt },
  });
  return credentialId;
}

/**
 * Verifies the attestation of a security-key ceremony the same user started (every check of
 * `verifyRegistration`) and stores the key as the user's second factor.
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
      const credentialId = await storeSecurityKey(tenant, user, response, verified, audit);
      return { credential_id: credentialId, user_id: user.id };
    });
  });
}
