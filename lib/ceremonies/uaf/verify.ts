import { sha256, decodeBase64Lenient, sameBytes } from "./encoding";
import {
  assertSupportedAlgorithm,
  importPublicKey,
  verifyBasicFullAttestation,
  verifyBasicSurrogateAttestation,
  verifySignature,
  SUPPORTED_PUBLIC_KEY_ENCODINGS,
} from "./crypto";
import { UafError, UafStatus, type UafReason, type UafStatusCode } from "./errors";
import {
  finalChallengeHash,
  openServerData,
  type ChannelBinding,
  type ParsedUafResponse,
  type Policy,
  type Transaction,
  type UafExtension,
  type UafOperation,
  type Version,
} from "./messages";
import { policyAccepts, policyDisallows, type PolicySubject } from "./policy";
import {
  Tag,
  TlvError,
  parseAuthAssertion,
  parseRegAssertion,
  type DecodeTlvOptions,
  type TlvExtension,
} from "./tlv";

/**
 * Server-side checks of a UAF Reg or Auth response (fido-uaf-protocol-v1.1 §3.4.6.5, §3.5.7.5;
 * fido-uaf.md §4). Pure: everything the checks need comes in `expected`, nothing is stored, and the
 * caller marks the request used (single use) and stores the result.
 */

export const ASSERTION_SCHEME = "UAFV1TLV";
export const MIN_NONCE_BYTES = 8;

export interface ExpectedRequest {
  /** header.appID as issued ("" when the client's FacetID is the AppID). */
  appID: string;
  /** The challenge issued with the request. */
  challenge: string;
  /** header.serverData exactly as issued; when given, the response must echo it. */
  serverData?: string;
  /** When given, serverData is opened with it: valid MAC, not expired at `now`, same challenge. */
  serverDataKey?: Uint8Array;
  /** With serverDataKey: the request id serverData must name. */
  requestId?: string;
  /** FacetIDs the AppID's Trusted Facets list allows (web origins, android:apk-key-hash:…, ios:bundle-id:…). */
  trustedFacetIds: readonly string[];
  /** The policy sent with the request. */
  policy: Policy;
  /** When known: Sesame's own TLS binding; a client reporting a different one is refused (1490). */
  channelBinding?: Pick<ChannelBinding, "serverEndPoint" | "tlsServerCertificate">;
  /** Extension ids this server understands; an unknown one marked critical fails (default none). */
  supportedExtensions?: readonly string[];
  /** The verification time: serverData expiry and attestation certificate validity. */
  now: Date;
  /** TLV decoding options (for example which vendor tags to tolerate). */
  tlv?: DecodeTlvOptions;
}

export interface AttestationTrust {
  /** Roots (PEM or base64 DER) trusted for any AAID. */
  trustedRoots?: readonly (string | Uint8Array)[];
  /** Roots trusted only for one AAID (upper-case `VVVV#MMMM` keys), as a metadata statement lists them. */
  trustedRootsByAaid?: Readonly<Record<string, readonly (string | Uint8Array)[]>>;
  /** Accept TAG_ATTESTATION_BASIC_SURROGATE: for every AAID (true) or for the listed ones. */
  allowSurrogate: boolean | readonly string[];
}

export interface RegistrationExpectation extends ExpectedRequest {
  attestation: AttestationTrust;
}

export type AttestationType = "basic_full" | "basic_surrogate";

export interface VerifiedRegistration {
  aaid: string;
  keyId: Buffer;
  publicKey: Buffer;
  publicKeyAlgAndEncoding: number;
  signatureAlgAndEncoding: number;
  authenticatorVersion: number;
  signCounter: number;
  regCounter: number;
  attestationType: AttestationType;
  /** DER, leaf first (basic full); empty for surrogate. */
  attestationCertificates: Buffer[];
  upv: Version;
  facetId: string;
  extensions: TlvExtension[];
}

/** What the server stored at registration; the HTTP layer passes its own rows (ids and all). */
export interface StoredRegistration {
  aaid: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
  publicKeyAlgAndEncoding: number;
  signatureAlgAndEncoding: number;
  signCounter: number;
}

export interface AuthenticationExpectation<R extends StoredRegistration> extends ExpectedRequest {
  /** The registrations that may answer (the user's, or those the request named). */
  registrations: readonly R[];
  /** The transaction variants sent with the request, if any: one must be confirmed. */
  transaction?: readonly Transaction[];
}

export interface VerifiedAuthentication<R extends StoredRegistration> {
  registration: R;
  aaid: string;
  keyId: Buffer;
  /** The new counter to store. */
  signCounter: number;
  authenticationMode: number;
  /** The transaction the user confirmed (authenticationMode 2). */
  transaction?: Transaction;
  upv: Version;
  facetId: string;
  extensions: TlvExtension[];
}

export function verifyRegistrationResponse(
  response: ParsedUafResponse,
  expected: RegistrationExpectation,
): VerifiedRegistration {
  const assertionBytes = checkResponse(response, "Reg", expected);
  const assertion = tlvOrFail(() => parseRegAssertion(assertionBytes, expected.tlv));
  if (assertion.authenticationMode !== 1) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "wrong_authentication_mode",
      "A registration has authenticationMode 1",
    );
  }
  const extensions = [...assertion.signedExtensions, ...assertion.unsignedExtensions];
  checkTlvExtensions(extensions, expected);
  assertSupportedAlgorithm(assertion.signatureAlgAndEncoding);
  if (!SUPPORTED_PUBLIC_KEY_ENCODINGS.has(assertion.publicKeyAlgAndEncoding)) {
    fail(
      UafStatus.UNACCEPTABLE_ALGORITHM,
      "unsupported_algorithm",
      "The public key encoding is not supported",
    );
  }
  checkFinalChallengeHash(assertion.finalChallengeHash, response.fcParams);

  const attestationTag =
    assertion.attestation.type === "basic_full"
      ? Tag.ATTESTATION_BASIC_FULL
      : assertion.attestation.type === "basic_surrogate"
        ? Tag.ATTESTATION_BASIC_SURROGATE
        : assertion.attestation.type === "ecdaa"
          ? Tag.ATTESTATION_ECDAA
          : Tag.ATTESTATION_ATTCA;
  checkPolicy(expected.policy, {
    aaid: assertion.aaid,
    keyId: assertion.keyId,
    authenticationAlgorithm: assertion.signatureAlgAndEncoding,
    assertionScheme: ASSERTION_SCHEME,
    attestationType: attestationTag,
    authenticatorVersion: assertion.authenticatorVersion,
  });

  const publicKey = importPublicKey(
    assertion.publicKey,
    assertion.publicKeyAlgAndEncoding,
    assertion.signatureAlgAndEncoding,
  );
  const { attestation } = assertion;
  let attestationCertificates: Buffer[] = [];
  if (attestation.type === "basic_full") {
    const roots = rootsFor(expected.attestation, assertion.aaid);
    if (roots.length === 0) {
      fail(UafStatus.UNKNOWN_AAID, "unknown_aaid", `No attestation root is trusted for ${assertion.aaid}`);
    }
    verifyBasicFullAttestation({
      krd: assertion.krd,
      signature: attestation.signature,
      signAlg: assertion.signatureAlgAndEncoding,
      certificates: attestation.certificates,
      trustedRoots: roots,
      now: expected.now,
      aaid: assertion.aaid,
    });
    attestationCertificates = attestation.certificates;
  } else if (attestation.type === "basic_surrogate") {
    if (!surrogateAllowed(expected.attestation, assertion.aaid)) {
      fail(
        UafStatus.UNACCEPTABLE_ATTESTATION,
        "attestation_not_accepted",
        `Surrogate attestation is not accepted for ${assertion.aaid}`,
      );
    }
    verifyBasicSurrogateAttestation({
      krd: assertion.krd,
      signature: attestation.signature,
      signAlg: assertion.signatureAlgAndEncoding,
      publicKey,
    });
  } else {
    fail(
      UafStatus.UNACCEPTABLE_ATTESTATION,
      "attestation_not_accepted",
      `${attestation.type} attestation is not supported`,
    );
  }

  return {
    aaid: assertion.aaid,
    keyId: assertion.keyId,
    publicKey: assertion.publicKey,
    publicKeyAlgAndEncoding: assertion.publicKeyAlgAndEncoding,
    signatureAlgAndEncoding: assertion.signatureAlgAndEncoding,
    authenticatorVersion: assertion.authenticatorVersion,
    signCounter: assertion.signCounter,
    regCounter: assertion.regCounter,
    attestationType: attestation.type,
    attestationCertificates,
    upv: response.header.upv,
    facetId: response.finalChallengeParams.facetID,
    extensions,
  };
}

export function verifyAuthenticationResponse<R extends StoredRegistration>(
  response: ParsedUafResponse,
  expected: AuthenticationExpectation<R>,
): VerifiedAuthentication<R> {
  const assertionBytes = checkResponse(response, "Auth", expected);
  const assertion = tlvOrFail(() => parseAuthAssertion(assertionBytes, expected.tlv));
  if (assertion.authenticationMode !== 1 && assertion.authenticationMode !== 2) {
    fail(UafStatus.UNACCEPTABLE_CONTENT, "wrong_authentication_mode", "authenticationMode must be 1 or 2");
  }
  const extensions = [...assertion.signedExtensions, ...assertion.unsignedExtensions];
  checkTlvExtensions(extensions, expected);
  assertSupportedAlgorithm(assertion.signatureAlgAndEncoding);
  checkFinalChallengeHash(assertion.finalChallengeHash, response.fcParams);
  // The key first: one that is none of the request's registrations is unknown (1481), not a policy miss.
  const registration = expected.registrations.find(
    (candidate) =>
      candidate.aaid.toUpperCase() === assertion.aaid &&
      sameBytes(Buffer.from(candidate.keyId), assertion.keyId),
  );
  if (!registration) {
    fail(
      UafStatus.UNKNOWN_KEYID,
      "unknown_key_id",
      "No registration of this request matches the AAID and KeyID",
    );
  }
  checkPolicy(expected.policy, {
    aaid: assertion.aaid,
    keyId: assertion.keyId,
    authenticationAlgorithm: assertion.signatureAlgAndEncoding,
    assertionScheme: ASSERTION_SCHEME,
    authenticatorVersion: assertion.authenticatorVersion,
  });

  if (registration.signatureAlgAndEncoding !== assertion.signatureAlgAndEncoding) {
    fail(
      UafStatus.UNACCEPTABLE_ALGORITHM,
      "unsupported_algorithm",
      "The signature algorithm differs from the registered one",
    );
  }
  if (assertion.authenticatorNonce.length < MIN_NONCE_BYTES) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "nonce_too_short",
      `The authenticator nonce is under ${MIN_NONCE_BYTES} bytes`,
    );
  }
  const transaction = checkTransaction(
    assertion.authenticationMode,
    assertion.transactionContentHash,
    expected,
  );

  const key = importPublicKey(
    registration.publicKey,
    registration.publicKeyAlgAndEncoding,
    registration.signatureAlgAndEncoding,
  );
  if (!verifySignature(assertion.signatureAlgAndEncoding, assertion.signedData, key, assertion.signature)) {
    fail(UafStatus.UNACCEPTABLE_CONTENT, "signature_invalid", "The assertion signature does not verify");
  }

  // Clone detection (fido-uaf-protocol-v1.1 §4.3.11): the counter must grow, unless it is never used (0, 0).
  const previous = registration.signCounter;
  const current = assertion.signCounter;
  if (!(current > previous || (current === 0 && previous === 0))) {
    fail(
      UafStatus.REVOKED_AUTHENTICATOR,
      "counter_regression",
      `The sign counter went from ${previous} to ${current}: the authenticator may be cloned`,
    );
  }

  return {
    registration,
    aaid: assertion.aaid,
    keyId: assertion.keyId,
    signCounter: current,
    authenticationMode: assertion.authenticationMode,
    ...(transaction ? { transaction } : {}),
    upv: response.header.upv,
    facetId: response.finalChallengeParams.facetID,
    extensions,
  };
}

/** The checks shared by Reg and Auth (fido-uaf.md §4.2); returns the one UAFV1TLV assertion's bytes. */
function checkResponse(response: ParsedUafResponse, op: UafOperation, expected: ExpectedRequest): Buffer {
  const { header, finalChallengeParams: fcp } = response;
  if (header.op !== op) fail(UafStatus.UNACCEPTABLE_CONTENT, "wrong_operation", `Expected a ${op} response`);
  if ((header.appID ?? "") !== expected.appID) {
    fail(UafStatus.UNACCEPTABLE_CONTENT, "app_id_mismatch", "header.appID differs from the request");
  }
  if (expected.serverData !== undefined && !sameText(header.serverData ?? "", expected.serverData)) {
    fail(UafStatus.REQUEST_INVALID, "server_data_mismatch", "header.serverData differs from the request");
  }
  if (expected.serverDataKey) {
    if (header.serverData === undefined) {
      fail(UafStatus.REQUEST_INVALID, "server_data_invalid", "The response carries no serverData");
    }
    const claims = openServerData(header.serverData, expected.serverDataKey, expected.now);
    const wrongRequest = expected.requestId !== undefined && claims.requestId !== expected.requestId;
    if (wrongRequest || !sameText(claims.challenge, expected.challenge)) {
      fail(UafStatus.REQUEST_INVALID, "server_data_invalid", "serverData belongs to another request");
    }
  }
  checkJsonExtensions(
    [...(header.exts ?? []), ...response.assertions.flatMap((a) => a.exts ?? [])],
    expected,
  );

  if (!sameText(fcp.challenge, expected.challenge)) {
    fail(
      UafStatus.REQUEST_INVALID,
      "challenge_mismatch",
      "fcParams.challenge is not the request's challenge",
    );
  }
  const appId = expected.appID === "" ? fcp.facetID : expected.appID;
  if (fcp.appID !== appId) {
    fail(UafStatus.FORBIDDEN, "app_id_mismatch", "fcParams.appID differs from the request's AppID");
  }
  if (!isTrustedFacet(fcp.facetID, expected)) {
    fail(UafStatus.FORBIDDEN, "untrusted_facet", `FacetID ${fcp.facetID} is not trusted for this AppID`);
  }
  checkChannelBinding(fcp.channelBinding, expected.channelBinding);

  const ours = response.assertions.filter((assertion) => assertion.assertionScheme === ASSERTION_SCHEME);
  if (ours.length === 0) fail(UafStatus.UNACCEPTABLE_CONTENT, "no_assertion", "No UAFV1TLV assertion");
  if (ours.length > 1) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "too_many_assertions",
      "One UAFV1TLV assertion per response is supported",
    );
  }
  const bytes = decodeBase64Lenient((ours[0] as { assertion: string }).assertion);
  if (!bytes) fail(UafStatus.UNACCEPTABLE_CONTENT, "malformed_assertion", "The assertion is not base64url");
  return bytes;
}

/**
 * A FacetID is trusted when listed, or when it is the AppID itself (an app that is its own AppID).
 * android:apk-key-hash values compare as bytes: lists mix padded, unpadded, std and url spellings.
 */
export function isTrustedFacet(
  facetId: string,
  expected: Pick<ExpectedRequest, "appID" | "trustedFacetIds">,
): boolean {
  if (expected.appID !== "" && facetId === expected.appID && !/^https:/i.test(facetId)) return true;
  return expected.trustedFacetIds.some((trusted) => sameFacet(trusted, facetId));
}

const APK_PREFIX = "android:apk-key-hash:";

function sameFacet(a: string, b: string): boolean {
  if (a === b) return true;
  if (!a.startsWith(APK_PREFIX) || !b.startsWith(APK_PREFIX)) return false;
  const left = decodeBase64Lenient(a.slice(APK_PREFIX.length));
  const right = decodeBase64Lenient(b.slice(APK_PREFIX.length));
  return left !== undefined && right !== undefined && left.length > 0 && left.equals(right);
}

function checkChannelBinding(sent: ChannelBinding, ours: ExpectedRequest["channelBinding"]): void {
  for (const field of ["serverEndPoint", "tlsServerCertificate"] as const) {
    const theirs = sent[field];
    const mine = ours?.[field];
    if (theirs !== undefined && mine !== undefined && !sameText(theirs, mine)) {
      fail(UafStatus.CHANNEL_BINDING_REFUSED, "channel_binding_mismatch", `channelBinding.${field} differs`);
    }
  }
}

function checkJsonExtensions(extensions: readonly UafExtension[], expected: ExpectedRequest): void {
  const unknown = extensions.find(
    (extension) => extension.fail_if_unknown && !(expected.supportedExtensions ?? []).includes(extension.id),
  );
  if (unknown) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "unknown_critical_extension",
      `Unknown critical extension ${unknown.id}`,
    );
  }
}

function checkTlvExtensions(extensions: readonly TlvExtension[], expected: ExpectedRequest): void {
  const unknown = extensions.find(
    (extension) => extension.critical && !(expected.supportedExtensions ?? []).includes(extension.id),
  );
  if (unknown) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "unknown_critical_extension",
      `Unknown critical extension ${unknown.id}`,
    );
  }
}

function checkFinalChallengeHash(inAssertion: Buffer, fcParams: string): void {
  if (!sameBytes(inAssertion, finalChallengeHash(fcParams))) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "final_challenge_hash_mismatch",
      "The final challenge hash does not match fcParams",
    );
  }
}

function checkPolicy(policy: Policy, subject: PolicySubject): void {
  if (policyDisallows(policy, subject)) {
    fail(
      UafStatus.UNACCEPTABLE_AUTHENTICATOR,
      "disallowed_authenticator",
      `The policy disallows ${subject.aaid}`,
    );
  }
  if (!policyAccepts(policy, subject)) {
    fail(
      UafStatus.UNACCEPTABLE_AUTHENTICATOR,
      "policy_not_satisfied",
      `The policy does not accept ${subject.aaid}`,
    );
  }
}

/**
 * A request with a transaction needs authenticationMode 2 and the hash of one variant's decoded content
 * (fido-uaf.md §3.5, §4.4.6); without one, mode 1 and an empty hash.
 */
function checkTransaction(
  mode: number,
  contentHash: Buffer,
  expected: { transaction?: readonly Transaction[] },
): Transaction | undefined {
  const variants = expected.transaction ?? [];
  if (variants.length === 0) {
    if (mode !== 1 || contentHash.length !== 0) {
      fail(
        UafStatus.UNACCEPTABLE_CONTENT,
        "wrong_authentication_mode",
        "No transaction was sent, so mode must be 1",
      );
    }
    return undefined;
  }
  if (mode !== 2 || contentHash.length === 0) {
    fail(UafStatus.UNACCEPTABLE_CONTENT, "transaction_not_confirmed", "The transaction was not confirmed");
  }
  const confirmed = variants.find((variant) => {
    const content = decodeBase64Lenient(variant.content);
    return content !== undefined && sameBytes(sha256(content), contentHash);
  });
  if (!confirmed) {
    fail(
      UafStatus.UNACCEPTABLE_CONTENT,
      "transaction_mismatch",
      "The confirmed content is not the transaction sent",
    );
  }
  return confirmed;
}

function rootsFor(trust: AttestationTrust, aaid: string): (string | Uint8Array)[] {
  const byAaid = Object.entries(trust.trustedRootsByAaid ?? {})
    .filter(([key]) => key.toUpperCase() === aaid)
    .flatMap(([, roots]) => roots);
  return [...(trust.trustedRoots ?? []), ...byAaid];
}

function surrogateAllowed(trust: AttestationTrust, aaid: string): boolean {
  const { allowSurrogate } = trust;
  if (typeof allowSurrogate === "boolean") return allowSurrogate;
  return allowSurrogate.some((entry) => entry.toUpperCase() === aaid);
}

function tlvOrFail<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TlvError) {
      throw new UafError(
        UafStatus.UNACCEPTABLE_CONTENT,
        "malformed_assertion",
        `${error.code}: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

function sameText(a: string, b: string): boolean {
  return sameBytes(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function fail(code: UafStatusCode, reason: UafReason, message: string): never {
  throw new UafError(code, reason, message);
}
