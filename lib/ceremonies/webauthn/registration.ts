import { generateRegistrationOptions, verifyRegistrationResponse } from "@simplewebauthn/server";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { auditFailures, recordAuditEvent, type AuditContext } from "@/lib/audit";
import {
  authenticatorName,
  defaultCredentialName,
  insertCredential,
  selectUserCredentials,
} from "@/lib/credentials";
import { transaction } from "@/lib/db";
import { AppError, BadRequest, NotFound } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { findUser, upsertExternalUser } from "@/lib/users";
import { consumeChallenge, storeChallenge } from "./challenges";
import { attestationProblem } from "./attestation";
import { isEmbedded, readClientData } from "./client-data";
import { SUPPORTED_ALGORITHMS, auditPrefix, policyOf, timeoutMs } from "./policy";
import { issueCeremonyToken } from "./token";

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

type RegistrationKind = "registration" | "mfa-registration";

/** WebAuthn §7.1 step 25: longer credential ids are refused. */
const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * Starts a passkey (or MFA key) registration: creates or updates the user, stores a single-use
 * challenge bound to tenant, kind and user, and returns the creation options.
 */
export async function initializeRegistration(
  tenant: Tenant,
  kind: RegistrationKind,
  input: RegistrationInput,
  context: AuditContext,
): Promise<CreationOptions> {
  const type = `${auditPrefix(kind)}.initialize`;
  return auditFailures(tenant.id, type, context, () =>
    transaction(async () => {
      const { name, policy } = policyOf(tenant, kind);
      const displayName = input.displayName?.trim() || input.username;
      const user = await upsertExternalUser(tenant.id, {
        externalId: input.userId,
        username: input.username,
        displayName,
        icon: input.icon ?? null,
      });
      const existing = await selectUserCredentials(tenant.id, user.id);
      const options = await generateRegistrationOptions({
        rpName: tenant.rpName,
        rpID: tenant.rpId,
        userName: input.username,
        userDisplayName: displayName,
        userID: new TextEncoder().encode(input.userId),
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
        kind,
        challenge: options.challenge,
        userId: user.id,
        policy: name,
        userVerification: policy.userVerification,
        ttlSeconds: tenant.challengeTtlSeconds,
      });
      await recordAuditEvent(tenant.id, { ...context, type: `${type}.succeeded`, actor: input.userId });
      return {
        ...options,
        attestation: policy.attestation,
        authenticatorSelection: {
          ...options.authenticatorSelection,
          ...(policy.attachment ? { authenticatorAttachement: policy.attachment } : {}),
        },
      };
    }),
  );
}

/**
 * Finishes a registration: consumes the challenge, verifies the attestation against the tenant's
 * origins and RP ID, stores the credential and returns a token naming the user and the credential.
 */
export async function finalizeRegistration(
  tenant: Tenant,
  kind: RegistrationKind,
  response: RegistrationResponseJSON,
  context: AuditContext,
): Promise<{ token: string }> {
  const type = `${auditPrefix(kind)}.finalize`;
  return auditFailures(tenant.id, type, context, async () => {
    const clientData = readClientData(
      response.response.clientDataJSON,
      "unable to parse credential creation response",
    );
    const ceremony = await consumeChallenge(tenant.id, kind, clientData.challenge);
    if (!ceremony) throw new BadRequest("received challenge does not match with any stored one");
    if (ceremony.expired) throw new BadRequest("Session has Expired");
    const invalid = (detail: string) =>
      new BadRequest("failed to validate attestation", { details: [detail] });
    if (isEmbedded(clientData)) throw invalid("cross-origin (embedded) ceremonies are not allowed");
    if (Buffer.from(response.rawId, "base64url").length > MAX_CREDENTIAL_ID_BYTES) {
      throw invalid(`the credential id is longer than ${MAX_CREDENTIAL_ID_BYTES} bytes`);
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
      throw invalid((error as Error).message);
    }
    // The library stores what authenticator data attests; the response must name that credential.
    if (info.credential.id !== response.rawId) throw invalid("rawId is not the attested credential id");
    const problem = attestationProblem(info);
    if (problem) throw invalid(problem);

    const user = ceremony.userId ? await findUser(tenant.id, ceremony.userId) : undefined;
    if (!user?.externalId) throw new NotFound("user not found");
    const credentialId = info.credential.id;

    return transaction(async () => {
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
        isMfa: kind === "mfa-registration",
      });
      if (!stored) throw invalid("this credential is already registered");
      await recordAuditEvent(tenant.id, {
        ...context,
        type: `${type}.succeeded`,
        actor: user.externalId,
        details: { credential_id: credentialId, aaguid: info.aaguid, fmt: info.fmt },
      });
      return { token: await issueCeremonyToken(tenant, { userId: user.externalId!, credentialId }) };
    });
  });
}
