import { generateAuthenticationOptions, verifyAuthenticationResponse } from "@simplewebauthn/server";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
  VerifiedAuthenticationResponse,
} from "@simplewebauthn/server";
import type { AuditContext, AuditEvent } from "@/lib/audit";
import { findCredentialWithOwner, recordCredentialUse, type Credential } from "@/lib/credentials";
import { transaction } from "@/lib/db";
import type { WebauthnChallengeRow } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import type { Tenant } from "@/lib/tenants";
import { consumeChallenge, storeChallenge } from "./challenges-store";
import { isEmbedded, readClientData } from "./client-data";
import { auditPrefix, policyOf, timeoutMs } from "./policy";
import { isUserHandleOf } from "./user-handle";
import { UserLocked, type User } from "@/lib/users";

/** Assertion ceremonies: the Passkey API's, and the public API's login to a session. */
export type AssertionKind = "login" | "mfa-login" | "transaction" | "public-login";

/** 401 with Hanko's title; the detail says what to fix without telling credentials and users apart. */
export const assertionFailed = (detail: string) =>
  new AppError("CEREMONY_VERIFICATION_FAILED", "failed to validate assertion", { details: [detail] });

const NOT_USABLE = "the credential is unknown, not allowed for this ceremony or does not belong to the user";

/** Issues and stores a challenge for an assertion ceremony and returns the request options. */
export async function issueAssertionOptions(
  tenant: Tenant,
  kind: AssertionKind,
  options: {
    userId: string | null;
    credentials: Credential[] | null;
    challenge?: Uint8Array<ArrayBuffer>;
    transactionId?: string;
    /** Recorded with the challenge, in the same statement. */
    audit?: AuditEvent;
  },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { name, policy } = policyOf(tenant, kind);
  const allowed = options.credentials?.map((credential) => credential.id) ?? null;
  const requestOptions = await assertionRequestOptions(tenant, kind, allowed, options.challenge);
  await storeChallenge(
    {
      tenantId: tenant.id,
      kind,
      challenge: requestOptions.challenge,
      userId: options.userId,
      policy: name,
      userVerification: policy.userVerification,
      allowCredentials: allowed,
      transactionId: options.transactionId ?? null,
      ttlSeconds: tenant.challengeTtlSeconds,
    },
    options.audit,
  );
  return requestOptions;
}

/**
 * The request options of an assertion of `kind` (allowed credential ids, or discoverable with null),
 * for `challenge` or a new one; nothing is stored.
 */
export function assertionRequestOptions(
  tenant: Tenant,
  kind: AssertionKind,
  allowed: string[] | null,
  challenge?: Uint8Array<ArrayBuffer>,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: tenant.rpId,
    timeout: timeoutMs(tenant),
    userVerification: policyOf(tenant, kind).policy.userVerification,
    // Transports are left out, as Hanko does: some platforms then refuse to offer a hybrid flow.
    ...(allowed ? { allowCredentials: allowed.map((id) => ({ id })) } : {}),
    ...(challenge ? { challenge } : {}),
  });
}

export interface VerifiedAssertion<K extends AssertionKind = AssertionKind> {
  ceremony: WebauthnChallengeRow;
  credential: Credential;
  /**
   * The owner's external id (the Passkey API `user_id`). Passkey API ceremonies accept only credentials
   * of such users; a public login accepts platform users too, who have none.
   */
  ownerExternalId: K extends "public-login" ? string | null : string;
  /** The credential's owner, as read with the credential. */
  owner: User | undefined;
}

/**
 * The checks every assertion finalize shares (WebAuthn §7.2): the challenge is consumed for this
 * tenant and kind, the credential belongs to the tenant, suits the ceremony (MFA keys only for MFA
 * login), was offered and belongs to the ceremony's user (or, when discoverable, to the user handle);
 * then the signature, origin, RP ID, flags and sign count are verified, and the credential's use is
 * recorded with a compare-and-set on the sign count, together with the success's audit record.
 * `complete` runs first, in the same transaction; when it writes nothing (`completeWrites: false`), the
 * use and its record are one statement and no transaction is opened.
 */
export async function finalizeAssertion<T, K extends AssertionKind>(
  tenant: Tenant,
  kind: K,
  response: AuthenticationResponseJSON,
  context: AuditContext,
  complete: (verified: VerifiedAssertion<K>) => Promise<{ result: T; details?: Record<string, unknown> }>,
  options: { completeWrites?: boolean } = {},
): Promise<T> {
  const clientData = readClientData(response.response.clientDataJSON, "unable to finish login");
  const ceremony = await consumeChallenge(tenant.id, kind, clientData.challenge);
  if (!ceremony) {
    throw new AppError("CEREMONY_VERIFICATION_FAILED", "failed to get session data", {
      details: ["received challenge does not match with any stored one"],
    });
  }
  if (ceremony.expired) throw assertionFailed("Session has Expired");
  if (isEmbedded(clientData)) throw assertionFailed("cross-origin (embedded) ceremonies are not allowed");

  const found = await findCredentialWithOwner(tenant.id, response.rawId);
  if (!found || (kind !== "public-login" && found.ownerExternalId === null)) {
    throw assertionFailed(NOT_USABLE);
  }
  const { credential, ownerExternalId, owner } = found;
  if (credential.isMfa !== (kind === "mfa-login")) {
    throw assertionFailed(
      kind === "mfa-login"
        ? "only MFA credentials can be used for MFA login"
        : `MFA credentials are not usable for ${kind === "transaction" ? "transactions" : "normal login"}`,
    );
  }
  if (ceremony.allowCredentials && !ceremony.allowCredentials.includes(credential.id)) {
    throw assertionFailed(NOT_USABLE);
  }
  // Offered ids were the user's at initialize; one deleted and registered again by someone else since
  // is caught here.
  if (ceremony.userId && ceremony.userId !== credential.userId) throw assertionFailed(NOT_USABLE);
  // MFA keys are often not discoverable and may send any user handle: the session names the user.
  if (kind !== "mfa-login") {
    const handle = response.response.userHandle || undefined;
    if (!ceremony.userId && handle === undefined) {
      throw assertionFailed("a discoverable login needs the user handle");
    }
    if (
      handle !== undefined &&
      !isUserHandleOf(handle, { id: credential.userId, externalId: ownerExternalId })
    ) {
      throw assertionFailed(NOT_USABLE);
    }
  }

  const info = await verifyAssertionSignature(tenant, response, credential, ceremony);

  const finish = async () => {
    // A locked user completes no ceremony (a Passkey API login or transaction yields no token either).
    // The owner was read with the credential; a lock set since then fails the sign count's update below,
    // and a session's start checks again under the user's row lock.
    if (owner?.lockedAt) throw new UserLocked();
    const verified = { ceremony, credential, ownerExternalId, owner } as VerifiedAssertion<K>;
    const { result, details } = await complete(verified);
    await recordAssertionUse(tenant, credential, info, {
      ...context,
      type: `${auditPrefix(kind)}.finalize.succeeded`,
      // Public API events name the user by its id, Passkey API events by the relying party's.
      actor: kind === "public-login" ? credential.userId : ownerExternalId,
      details: { credential_id: credential.id, ...details },
    });
    return result;
  };
  return options.completeWrites === false ? finish() : transaction(finish);
}

type AuthenticationInfo = VerifiedAuthenticationResponse["authenticationInfo"];

/**
 * SimpleWebAuthn's verification of an assertion against the stored key and the ceremony's challenge
 * and UV requirement (signature, origin, RP ID, type, flags, sign count), then the backup eligibility
 * the credential was registered with. Every failure is `assertionFailed`.
 */
export async function verifyAssertionSignature(
  tenant: Tenant,
  response: AuthenticationResponseJSON,
  credential: Credential,
  ceremony: { challenge: string; userVerification: string },
): Promise<AuthenticationInfo> {
  let info;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: tenant.origins,
      expectedRPID: tenant.rpId,
      expectedType: "webauthn.get",
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, "base64url")),
        counter: credential.signCount,
      },
      requireUserVerification: ceremony.userVerification === "required",
    });
    if (!verification.verified) throw new Error("the signature could not be verified");
    info = verification.authenticationInfo;
  } catch (error) {
    const message = (error as Error).message;
    if (/counter/i.test(message)) {
      throw assertionFailed(`sign counter regression, the authenticator may be cloned: ${message}`);
    }
    throw assertionFailed(message);
  }
  if ((info.credentialDeviceType === "multiDevice") !== credential.backupEligible) {
    throw assertionFailed("the backup eligibility flag differs from the one registered");
  }
  return info;
}

/**
 * Records a verified assertion's use of the credential (new sign count, backup state) with a
 * compare-and-set on the sign count it was verified against, in the caller's transaction: a concurrent
 * use or removal fails the ceremony. `audit`, the success's record, is written by the same statement.
 */
export async function recordAssertionUse(
  tenant: Tenant,
  credential: Credential,
  info: AuthenticationInfo,
  audit?: AuditEvent,
): Promise<void> {
  const recorded = await recordCredentialUse(
    tenant.id,
    credential.id,
    {
      expectedSignCount: credential.signCount,
      signCount: info.newCounter,
      backupState: info.credentialBackedUp,
    },
    audit,
  );
  if (!recorded)
    throw assertionFailed("the credential was used or removed during this ceremony (sign counter changed)");
}
