import type { VerifiedRegistrationResponse } from "@simplewebauthn/server";
import { cose, decodeCredentialPublicKey, isoCBOR } from "@simplewebauthn/server/helpers";

type RegistrationInfo = NonNullable<VerifiedRegistrationResponse["registrationInfo"]>;
type CborMap = Map<string, unknown>;

/**
 * Checks of a verified attestation that @simplewebauthn/server leaves out; returns what is wrong, if
 * anything. The attestation object must be exactly one CBOR item (WebAuthn §7.1 step 13: the library
 * ignores bytes after it; re-encoding keeps a conforming item's length, which the library relies on
 * too), and a packed self attestation must name the credential key's algorithm (§8.2).
 */
export function attestationProblem(info: RegistrationInfo): string | undefined {
  const bytes = info.attestationObject;
  const decoded = isoCBOR.decodeFirst<CborMap>(bytes);
  if (isoCBOR.encode(decoded as Parameters<typeof isoCBOR.encode>[0]).length !== bytes.length) {
    return "the attestation object is not a single CBOR item (trailing data)";
  }
  const attStmt = decoded.get("attStmt") as CborMap | undefined;
  if (info.fmt === "packed" && attStmt && !attStmt.has("x5c")) {
    const keyAlg = decodeCredentialPublicKey(info.credential.publicKey).get(cose.COSEKEYS.alg);
    if (attStmt.get("alg") !== keyAlg) {
      return "the packed self attestation's alg is not the algorithm of the credential public key";
    }
  }
  return undefined;
}
