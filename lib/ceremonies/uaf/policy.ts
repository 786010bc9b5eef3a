import { decodeBase64Lenient, sameBytes } from "./encoding";
import type { MatchCriteria, Policy } from "./messages";

/**
 * What an assertion tells about its authenticator, for matching a UAF policy (fido-uaf.md §2.3).
 * Only the fields an assertion proves are matched: aaid, vendorID, keyIDs, authenticationAlgorithms,
 * assertionSchemes, attestationTypes (registration) and authenticatorVersion. userVerification,
 * keyProtection, matcherProtection, attachmentHint and tcDisplay need a metadata statement, which this
 * module does not have: they stay hints for the client and are not enforced here.
 */
export interface PolicySubject {
  aaid: string;
  /** Raw KeyID bytes; absent before a key exists (checking a registration request). */
  keyId?: Uint8Array;
  authenticationAlgorithm: number;
  assertionScheme: string;
  /** The attestation tag (0x3E07 basic full, 0x3E08 surrogate); registration only. */
  attestationType?: number;
  authenticatorVersion?: number;
}

export function matchesCriteria(criteria: MatchCriteria, subject: PolicySubject): boolean {
  const aaid = subject.aaid.toUpperCase();
  if (criteria.aaid && !criteria.aaid.some((entry) => entry.toUpperCase() === aaid)) return false;
  if (criteria.vendorID && !criteria.vendorID.some((vendor) => vendor.toUpperCase() === aaid.slice(0, 4))) {
    return false;
  }
  if (criteria.keyIDs) {
    const keyId = subject.keyId;
    if (!keyId || !criteria.keyIDs.some((entry) => sameKeyId(entry, keyId))) return false;
  }
  if (
    criteria.authenticationAlgorithms &&
    !criteria.authenticationAlgorithms.includes(subject.authenticationAlgorithm)
  ) {
    return false;
  }
  if (criteria.assertionSchemes && !criteria.assertionSchemes.includes(subject.assertionScheme)) return false;
  if (
    criteria.attestationTypes &&
    subject.attestationType !== undefined &&
    !criteria.attestationTypes.includes(subject.attestationType)
  ) {
    return false;
  }
  if (
    criteria.authenticatorVersion !== undefined &&
    subject.authenticatorVersion !== undefined &&
    criteria.authenticatorVersion > subject.authenticatorVersion
  ) {
    return false;
  }
  return true;
}

/**
 * True when one authenticator satisfies an `accepted` set. A set lists authenticators that must all be
 * used together, so only a one-criterion set can be met by a single assertion.
 */
export function policyAccepts(policy: Policy, subject: PolicySubject): boolean {
  return policy.accepted.some((set) => set.length === 1 && matchesCriteria(set[0] as MatchCriteria, subject));
}

export function policyDisallows(policy: Policy, subject: PolicySubject): boolean {
  return (policy.disallowed ?? []).some((criteria) => matchesCriteria(criteria, subject));
}

/** KeyIDs compare as bytes, so padded or standard-alphabet spellings of one KeyID are equal. */
export function sameKeyId(text: string, keyId: Uint8Array): boolean {
  const bytes = decodeBase64Lenient(text);
  return bytes !== undefined && sameBytes(bytes, keyId);
}
