import { generateRegistrationOptions, type RegistrationResponseJSON } from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import type { CeremonyKind } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { storeChallenge } from "./challenges-store";
import { readClientData } from "./client-data";
import { SUPPORTED_ALGORITHMS, timeoutMs } from "./policy";
import {
  verifyRegistration,
  type AnyRegistrationKind,
  type CreationOptions,
  type VerifiedRegistration,
} from "./registration";
import { userHandleOf } from "./user-handle";

/**
 * The ceremony kind of a passkey created during sign-up, for a user that does not exist yet: its
 * challenge row has no user (the FK could not point anywhere), so only this kind's finalize takes it.
 */
const SIGN_UP: CeremonyKind = "sign-up";
// verifyRegistration only uses the kind to consume the challenge; its type predates this kind.
const SIGN_UP_REGISTRATION = SIGN_UP as AnyRegistrationKind;

/** Audit events: Hanko's `webauthn_registration_*`, with `sign_up: true` in the details. */
const AUDIT = "webauthn.registration";

/** The user a sign-up passkey is for: the id the user row will get, and what the authenticator shows. */
export interface SignUpPasskeyUser {
  id: string;
  userName: string;
  displayName: string;
}

/**
 * Creation options for a passkey of a user that sign-up has not created yet. The user handle is the
 * 16 bytes of the pre-generated UUID (a platform user's handle, `userHandleOf`), the passkey must be
 * discoverable (`residentKey: required`, as Hanko creates passkeys) and user verification and
 * attestation follow the tenant's passkey policy. The single-use challenge is stored for the tenant
 * and the `sign-up` kind with no user; the caller keeps it and hands it back to
 * `verifySignUpPasskey`, which is what binds the ceremony to the sign-up that started it.
 */
export async function issueSignUpCreationOptions(
  tenant: Tenant,
  user: SignUpPasskeyUser,
  context: AuditContext,
): Promise<CreationOptions> {
  const type = `${AUDIT}.initialize`;
  const audit = { ...context, actor: user.id };
  return auditFailures(tenant.id, type, audit, async () => {
    const policy = tenant.passkeyPolicy;
    const options = await generateRegistrationOptions({
      rpName: tenant.rpName,
      rpID: tenant.rpId,
      userName: user.userName,
      userDisplayName: user.displayName,
      userID: userHandleOf({ id: user.id, externalId: null }),
      timeout: timeoutMs(tenant),
      attestationType: policy.attestation === "none" ? "none" : "direct",
      authenticatorSelection: {
        residentKey: "required",
        userVerification: policy.userVerification,
        ...(policy.attachment ? { authenticatorAttachment: policy.attachment } : {}),
      },
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    await storeChallenge({
      tenantId: tenant.id,
      kind: SIGN_UP,
      challenge: options.challenge,
      userId: null,
      policy: "passkey",
      userVerification: policy.userVerification,
      ttlSeconds: tenant.challengeTtlSeconds,
    });
    await recordAuditEvent(tenant.id, { ...audit, type: `${type}.succeeded`, details: { sign_up: true } });
    return {
      ...options,
      attestation: policy.attestation,
      authenticatorSelection: {
        ...options.authenticatorSelection,
        ...(policy.attachment ? { authenticatorAttachement: policy.attachment } : {}),
      },
    };
  });
}

/**
 * Verifies the attestation of a sign-up passkey (every check of `verifyRegistration`: challenge
 * consumed for this tenant and kind, origin, RP ID, flags, attestation). The response must answer
 * `challenge`, the one this sign-up was given: another sign-up's ceremony is refused before its
 * challenge is touched, so it stays usable there. Nothing is stored: the caller stores the
 * credential with the user, in one transaction.
 */
export async function verifySignUpPasskey(
  tenant: Tenant,
  response: RegistrationResponseJSON,
  expected: { userId: string; challenge: string },
  context: AuditContext,
): Promise<VerifiedRegistration> {
  const audit = { ...context, actor: expected.userId };
  return auditFailures(tenant.id, `${AUDIT}.finalize`, audit, async () => {
    const clientData = readClientData(
      response.response.clientDataJSON,
      "unable to parse credential creation response",
    );
    if (clientData.challenge !== expected.challenge) {
      throw new AppError("CHALLENGE_NOT_FOUND", "received challenge does not match with any stored one", {
        details: ["the ceremony was started by another sign-up"],
      });
    }
    const verified = await verifyRegistration(tenant, SIGN_UP_REGISTRATION, response);
    if (verified.ceremony.userId !== null) {
      throw new AppError("CHALLENGE_NOT_FOUND", "received challenge does not match with any stored one");
    }
    return verified;
  });
}
