import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { auditFailures, type AuditContext, type AuditEvent } from "@/lib/audit";
import {
  passkeyProviderName,
  defaultCredentialName,
  saveCredentialWithAudit,
  findUserCredentials,
} from "@/lib/credentials";
import type { WebauthnChallengeRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { userAgentParts } from "@/lib/sessions";
import { findUser, upsertExternalUser, type User } from "@/lib/users";
import { consumeChallenge, storeChallenge } from "./challenges-store";
import { attestationProblem } from "./attestation";
import { isEmbedded, readClientData } from "./client-data";
import {
  SUPPORTED_ALGORITHMS,
  auditPrefix,
  policyOf,
  timeoutMs,
  type PublicCeremonyKind,
  type StoredCeremonyKind,
} from "./policy";
import { issueCeremonyToken } from "./token";
import { userHandleOf } from "./user-handle";

export interface RegistrationInput {
  /** The relying party's id for the user; its UTF-8 bytes become the WebAuthn user handle. */
  userId: string;
  username: string;
  displayName?: string | undefined;
  icon?: string | undefined;
}

export type CreationOptions = PublicKeyCredentialCreationOptionsJSON & {
  authenticatorSelection: NonNullable<PublicKeyCredentialCreationOptionsJSON["authenticatorSelection"]> & {
    /** The spec's spelling, sent next to the standard `authenticatorAttachment`. */
    authenticatorAttachement?: string;
  };
};

type PasskeyRegistrationKind = "registration" | "mfa-registration";
export type AnyRegistrationKind =
  PasskeyRegistrationKind | Extract<PublicCeremonyKind, "public-registration">;

/** WebAuthn §7.1 step 25: longer credential ids are refused. */
const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * Creation options for `user` under the tenant's policy for `kind` (`policyOf`), with a single-use
 * challenge stored for tenant, kind and user. `excludeCredentials` lists the user's credentials, so an
 * authenticator that already holds one says so instead of registering twice. `attestation` is the
 * policy's own value (the library sends only `none` or `direct`).
 */
export async function generateCreationOptions(
  tenant: Tenant,
  kind: StoredCeremonyKind,
  user: User,
  names: { userName: string; displayName: string },
  /** Recorded with the challenge, in the same statement. */
  audit?: AuditEvent,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { name, policy } = policyOf(tenant, kind);
  const existing = await findUserCredentials(tenant.id, user.id);
  const options = await generateRegistrationOptions({
    rpName: tenant.rpName,
    rpID: tenant.rpId,
    userName: names.userName,
    userDisplayName: names.displayName,
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
  await storeChallenge(
    {
      tenantId: tenant.id,
      kind,
      challenge: options.challenge,
      userId: user.id,
      policy: name,
      userVerification: policy.userVerification,
      ttlSeconds: tenant.challengeTtlSeconds,
    },
    audit,
  );
  return { ...options, attestation: policy.attestation };
}

/**
 * `generateCreationOptions` for the Passkey API and the public API: `authenticatorSelection` also
 * carries the spec's `authenticatorAttachement` spelling.
 */
export async function issueCreationOptions(
  tenant: Tenant,
  kind: AnyRegistrationKind,
  user: User,
  names: { userName: string; displayName: string },
  audit?: AuditEvent,
): Promise<CreationOptions> {
  const { policy } = policyOf(tenant, kind);
  const options = await generateCreationOptions(tenant, kind, user, names, audit);
  return {
    ...options,
    authenticatorSelection: {
      ...options.authenticatorSelection,
      ...(policy.attachment ? { authenticatorAttachement: policy.attachment } : {}),
    },
  };
}

/**
 * Starts a passkey (or MFA key) registration: creates or updates the user, stores a single-use
 * challenge bound to tenant, kind and user (with the success's audit record, in one statement), and
 * returns the creation options. No transaction: each write is one atomic statement, and a user saved
 * without a challenge (a failure between the two) is what the next initialize would save anyway.
 */
export async function initializeRegistration(
  tenant: Tenant,
  kind: PasskeyRegistrationKind,
  input: RegistrationInput,
  context: AuditContext,
): Promise<CreationOptions> {
  const type = `${auditPrefix(kind)}.initialize`;
  return auditFailures(tenant.id, type, context, async () => {
    const displayName = input.displayName?.trim() || input.username;
    const user = await upsertExternalUser(tenant.id, {
      externalId: input.userId,
      username: input.username,
      displayName,
      icon: input.icon ?? null,
    });
    return issueCreationOptions(
      tenant,
      kind,
      user,
      { userName: input.username, displayName },
      { ...context, type: `${type}.succeeded`, actor: input.userId },
    );
  });
}

type RegistrationInfo = NonNullable<VerifiedRegistrationResponse["registrationInfo"]>;

export interface VerifiedRegistration {
  ceremony: WebauthnChallengeRow;
  info: RegistrationInfo;
}

const invalidAttestation = (detail: string) =>
  new AppError("ATTESTATION_INVALID", "failed to validate attestation", { details: [detail] });

/**
 * The checks of every registration finalize (WebAuthn §7.1): consumes the challenge for this tenant
 * and kind (and, when `userId` is given, refuses a ceremony started for anyone else), then verifies
 * the attestation against the tenant's origins and RP ID. Nothing is stored yet.
 */
export async function verifyRegistration(
  tenant: Tenant,
  kind: AnyRegistrationKind,
  response: RegistrationResponseJSON,
  expected: { userId?: string } = {},
): Promise<VerifiedRegistration> {
  const clientData = readClientData(
    response.response.clientDataJSON,
    "unable to parse credential creation response",
  );
  const ceremony = await consumeChallenge(tenant.id, kind, clientData.challenge);
  if (!ceremony)
    throw new AppError("CHALLENGE_NOT_FOUND", "received challenge does not match with any stored one");
  if (ceremony.expired) throw new AppError("CHALLENGE_EXPIRED", "Session has Expired");
  if (expected.userId !== undefined && ceremony.userId !== expected.userId) {
    throw new AppError("CHALLENGE_NOT_FOUND", "received challenge does not match with any stored one", {
      details: ["the registration was started by another user"],
    });
  }
  if (isEmbedded(clientData)) throw invalidAttestation("cross-origin (embedded) ceremonies are not allowed");
  if (Buffer.from(response.rawId, "base64url").length > MAX_CREDENTIAL_ID_BYTES) {
    throw invalidAttestation(`the credential id is longer than ${MAX_CREDENTIAL_ID_BYTES} bytes`);
  }

  let info;
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: tenant.origins,
      expectedRPID: tenant.rpId,
      expectedType: "webauthn.create",
      requireUserPresence: true,
      requireUserVerification: ceremony.userVerification === "required",
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    if (!verification.verified) throw new Error("the attestation could not be verified");
    info = verification.registrationInfo;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalidAttestation((error as Error).message);
  }
  // The library stores what authenticator data attests; the response must name that credential.
  if (info.credential.id !== response.rawId)
    throw invalidAttestation("rawId is not the attested credential id");
  const problem = attestationProblem(info);
  if (problem) throw invalidAttestation(problem);
  return { ceremony, info };
}

/**
 * Stores a verified credential for `user` (`isMfa`: usable only as a second factor) and records the
 * success event `type`, in the caller's transaction. Returns the credential id; a credential id the
 * tenant already has is refused.
 */
export async function storeVerifiedCredential(
  tenant: Tenant,
  user: User,
  response: RegistrationResponseJSON,
  { info }: VerifiedRegistration,
  { isMfa, type, audit }: { isMfa: boolean; type: string; audit: AuditContext },
): Promise<string> {
  const credentialId = info.credential.id;
  const record = {
    ...audit,
    type,
    details: { credential_id: credentialId, aaguid: info.aaguid, fmt: info.fmt },
  };
  const stored = await saveCredentialWithAudit(
    {
      tenantId: tenant.id,
      id: credentialId,
      userId: user.id,
      name: defaultCredentialName(passkeyProviderName(info.aaguid), userAgentParts(audit.userAgent ?? ""), {
        isMfa,
      }),
      publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
      signCount: info.credential.counter,
      transports: response.response.transports ?? [],
      aaguid: info.aaguid,
      attestationType: info.fmt,
      backupEligible: info.credentialDeviceType === "multiDevice",
      backupState: info.credentialBackedUp,
      userVerified: info.userVerified,
      isMfa,
    },
    record,
  );
  if (!stored) throw invalidAttestation("this credential is already registered");
  return credentialId;
}

/**
 * Stores a verified credential of a `kind` ceremony for `user` and records the success event, in the
 * caller's transaction. Returns the credential id.
 */
export async function storeRegisteredCredential(
  tenant: Tenant,
  kind: AnyRegistrationKind,
  user: User,
  response: RegistrationResponseJSON,
  verified: VerifiedRegistration,
  context: AuditContext & { actor: string },
): Promise<string> {
  return storeVerifiedCredential(tenant, user, response, verified, {
    isMfa: kind === "mfa-registration",
    type: `${auditPrefix(kind)}.finalize.succeeded`,
    audit: context,
  });
}

/**
 * Finishes a registration: consumes the challenge, verifies the attestation against the tenant's
 * origins and RP ID, stores the credential and returns a token naming the user and the credential.
 */
export async function finalizeRegistration(
  tenant: Tenant,
  kind: PasskeyRegistrationKind,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<{ token: string }> {
  const type = `${auditPrefix(kind)}.finalize`;
  return auditFailures(tenant.id, type, context, async () => {
    const verified = await verifyRegistration(tenant, kind, response);
    const { ceremony } = verified;
    const user = ceremony.userId ? await findUser(tenant.id, ceremony.userId) : undefined;
    if (!user?.externalId) throw new AppError("USER_NOT_FOUND", "user not found");
    const externalId = user.externalId;

    // The token first (the credential's id is known): then one statement stores the credential and its
    // record, and nothing is stored for a token that could not be signed. No transaction needed.
    const token = await issueCeremonyToken(tenant, {
      userId: externalId,
      credentialId: verified.info.credential.id,
    });
    await storeRegisteredCredential(tenant, kind, user, response, verified, {
      ...context,
      actor: externalId,
    });
    return { token };
  });
}
