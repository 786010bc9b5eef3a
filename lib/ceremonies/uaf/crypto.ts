import { X509Certificate, constants, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { DerError, derOctetString, findCertificateExtension, unwrapOctetString } from "./der";
import { decodeBase64Lenient } from "./encoding";
import { UafError, UafStatus } from "./errors";
import { MAX_ATTESTATION_CERTS } from "./tlv";

/** ALG_SIGN_* of the FIDO Registry of Predefined Values 1.1 (fido-uaf.md §3.6). */
export const AlgSign = {
  SECP256R1_ECDSA_SHA256_RAW: 0x0001,
  SECP256R1_ECDSA_SHA256_DER: 0x0002,
  RSASSA_PSS_SHA256_RAW: 0x0003,
  RSASSA_PSS_SHA256_DER: 0x0004,
  SECP256K1_ECDSA_SHA256_RAW: 0x0005,
  SECP256K1_ECDSA_SHA256_DER: 0x0006,
  SM2_SM3_RAW: 0x0007,
  RSA_EMSA_PKCS1_SHA256_RAW: 0x0008,
  RSA_EMSA_PKCS1_SHA256_DER: 0x0009,
} as const;

/** ALG_KEY_* public key encodings. */
export const AlgKey = {
  ECC_X962_RAW: 0x0100,
  ECC_X962_DER: 0x0101,
  RSA_2048_RAW: 0x0102,
  RSA_2048_DER: 0x0103,
  COSE: 0x0104,
} as const;

/** Everything the 1.1 registry defines except SM2 (0x0007); all of them hash with SHA-256. */
export const SUPPORTED_SIGNATURE_ALGORITHMS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 8, 9]);
export const SUPPORTED_PUBLIC_KEY_ENCODINGS: ReadonlySet<number> = new Set([0x100, 0x101, 0x102, 0x103]);

/** The attestation chain may hold at most this many certificates (leaf first, root excluded). */
export const MAX_CHAIN_LENGTH = MAX_ATTESTATION_CERTS;

const EC_CURVES: Readonly<Record<number, { jwk: string; node: string }>> = {
  [AlgSign.SECP256R1_ECDSA_SHA256_RAW]: { jwk: "P-256", node: "prime256v1" },
  [AlgSign.SECP256R1_ECDSA_SHA256_DER]: { jwk: "P-256", node: "prime256v1" },
  [AlgSign.SECP256K1_ECDSA_SHA256_RAW]: { jwk: "secp256k1", node: "secp256k1" },
  [AlgSign.SECP256K1_ECDSA_SHA256_DER]: { jwk: "secp256k1", node: "secp256k1" },
};
const RSA_PSS = new Set<number>([AlgSign.RSASSA_PSS_SHA256_RAW, AlgSign.RSASSA_PSS_SHA256_DER]);
const RSA_PKCS1 = new Set<number>([AlgSign.RSA_EMSA_PKCS1_SHA256_RAW, AlgSign.RSA_EMSA_PKCS1_SHA256_DER]);
const PSS_SALT_LENGTH = 32;
const MIN_RSA_BITS = 2048;
const MAX_RSA_BITS = 4096;

export function assertSupportedAlgorithm(signAlg: number): void {
  if (!SUPPORTED_SIGNATURE_ALGORITHMS.has(signAlg)) {
    throw new UafError(
      UafStatus.UNACCEPTABLE_ALGORITHM,
      "unsupported_algorithm",
      `Signature algorithm ${hex(signAlg)} is not supported`,
    );
  }
}

/** Imports UAuth.pub (TAG_PUB_KEY) given its ALG_KEY_* encoding and the ALG_SIGN_* it is used with. */
export function importPublicKey(bytes: Uint8Array, keyAlg: number, signAlg: number): KeyObject {
  assertSupportedAlgorithm(signAlg);
  if (!SUPPORTED_PUBLIC_KEY_ENCODINGS.has(keyAlg)) {
    throw new UafError(
      UafStatus.UNACCEPTABLE_ALGORITHM,
      "unsupported_algorithm",
      `Public key encoding ${hex(keyAlg)} is not supported`,
    );
  }
  const key = Buffer.from(bytes);
  let imported: KeyObject;
  try {
    imported = decodePublicKey(key, keyAlg, signAlg);
  } catch (error) {
    if (error instanceof UafError) throw error;
    throw badKey(`The ${hex(keyAlg)} public key does not decode`, error);
  }
  checkKeyForAlgorithm(imported, signAlg);
  return imported;
}

function decodePublicKey(key: Buffer, keyAlg: number, signAlg: number): KeyObject {
  switch (keyAlg) {
    case AlgKey.ECC_X962_RAW: {
      const curve = EC_CURVES[signAlg];
      if (!curve) throw badKey(`An EC key cannot be used with ${hex(signAlg)}`);
      if (key.length !== 65 || key[0] !== 0x04) throw badKey("An X9.62 raw key is 65 bytes starting with 04");
      return createPublicKey({
        format: "jwk",
        key: {
          kty: "EC",
          crv: curve.jwk,
          x: key.subarray(1, 33).toString("base64url"),
          y: key.subarray(33).toString("base64url"),
        },
      });
    }
    case AlgKey.ECC_X962_DER:
      return createPublicKey({ key, format: "der", type: "spki" });
    case AlgKey.RSA_2048_RAW: {
      if (key.length <= 256 || key.length > 256 + 8) throw badKey("An RSA raw key is n (256 bytes) then e");
      return createPublicKey({
        format: "jwk",
        key: {
          kty: "RSA",
          n: key.subarray(0, 256).toString("base64url"),
          e: key.subarray(256).toString("base64url"),
        },
      });
    }
    default: // AlgKey.RSA_2048_DER: PKCS#1 RSAPublicKey; some authenticators send an SPKI instead.
      try {
        return createPublicKey({ key, format: "der", type: "pkcs1" });
      } catch {
        return createPublicKey({ key, format: "der", type: "spki" });
      }
  }
}

/** The key's type, curve or size must fit the signature algorithm. */
export function checkKeyForAlgorithm(key: KeyObject, signAlg: number): void {
  assertSupportedAlgorithm(signAlg);
  const details = key.asymmetricKeyDetails ?? {};
  const curve = EC_CURVES[signAlg];
  if (curve) {
    if (key.asymmetricKeyType !== "ec" || details.namedCurve !== curve.node) {
      throw badKey(`${hex(signAlg)} needs an EC ${curve.jwk} key`);
    }
    return;
  }
  const type = key.asymmetricKeyType;
  const acceptable = type === "rsa" || (type === "rsa-pss" && RSA_PSS.has(signAlg));
  const bits = details.modulusLength ?? 0;
  if (!acceptable || bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
    throw badKey(`${hex(signAlg)} needs an RSA key of ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits`);
  }
}

/**
 * Verifies `signature` over `data` (the whole KRD or SignedData TLV) with SHA-256. A malformed signature
 * is false; an unsupported algorithm throws UafError 1495.
 */
export function verifySignature(
  signAlg: number,
  data: Uint8Array,
  key: KeyObject,
  signature: Uint8Array,
): boolean {
  assertSupportedAlgorithm(signAlg);
  const sig = Buffer.from(signature);
  try {
    switch (signAlg) {
      case AlgSign.SECP256R1_ECDSA_SHA256_RAW:
      case AlgSign.SECP256K1_ECDSA_SHA256_RAW:
        return sig.length === 64 && verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, sig);
      case AlgSign.SECP256R1_ECDSA_SHA256_DER:
      case AlgSign.SECP256K1_ECDSA_SHA256_DER:
        return verify("sha256", data, { key, dsaEncoding: "der" }, sig);
      default: {
        const raw =
          signAlg === AlgSign.RSASSA_PSS_SHA256_DER || signAlg === AlgSign.RSA_EMSA_PKCS1_SHA256_DER;
        const bytes = raw ? unwrapOctetString(sig) : sig;
        const modulusBytes = (key.asymmetricKeyDetails?.modulusLength ?? 0) / 8;
        return bytes.length === modulusBytes && verify("sha256", data, rsaOptions(key, signAlg), bytes);
      }
    }
  } catch (error) {
    if (error instanceof DerError || isOpenSslError(error)) return false;
    throw error;
  }
}

/** Signs like an authenticator of `signAlg` (used by the software authenticator and tests). */
export function signData(signAlg: number, data: Uint8Array, privateKey: KeyObject): Buffer {
  assertSupportedAlgorithm(signAlg);
  switch (signAlg) {
    case AlgSign.SECP256R1_ECDSA_SHA256_RAW:
    case AlgSign.SECP256K1_ECDSA_SHA256_RAW:
      return sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" });
    case AlgSign.SECP256R1_ECDSA_SHA256_DER:
    case AlgSign.SECP256K1_ECDSA_SHA256_DER:
      return sign("sha256", data, { key: privateKey, dsaEncoding: "der" });
    case AlgSign.RSASSA_PSS_SHA256_DER:
    case AlgSign.RSA_EMSA_PKCS1_SHA256_DER:
      return derOctetString(sign("sha256", data, rsaOptions(privateKey, signAlg)));
    default:
      return sign("sha256", data, rsaOptions(privateKey, signAlg));
  }
}

/** Encodes a public key as TAG_PUB_KEY bytes in the given ALG_KEY_* encoding. */
export function exportPublicKey(publicKey: KeyObject, keyAlg: number): Buffer {
  switch (keyAlg) {
    case AlgKey.ECC_X962_RAW: {
      const jwk = publicKey.export({ format: "jwk" });
      const size = jwk.crv === "P-256" || jwk.crv === "secp256k1" ? 32 : 0;
      if (jwk.kty !== "EC" || !size || !jwk.x || !jwk.y)
        throw new Error("ECC_X962_RAW needs a 256-bit EC key");
      const coordinate = (value: string) => leftPad(Buffer.from(value, "base64url"), size);
      return Buffer.concat([Buffer.from([0x04]), coordinate(jwk.x), coordinate(jwk.y)]);
    }
    case AlgKey.ECC_X962_DER:
      return publicKey.export({ format: "der", type: "spki" });
    case AlgKey.RSA_2048_RAW: {
      const jwk = publicKey.export({ format: "jwk" });
      const n = Buffer.from(jwk.n ?? "", "base64url");
      if (jwk.kty !== "RSA" || n.length !== 256) throw new Error("RSA_2048_RAW needs a 2048-bit RSA key");
      return Buffer.concat([n, Buffer.from(jwk.e ?? "", "base64url")]);
    }
    case AlgKey.RSA_2048_DER:
      return publicKey.export({ format: "der", type: "pkcs1" });
    default:
      throw new Error(`Public key encoding ${hex(keyAlg)} is not supported`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Attestation

/** One certificate from PEM text, base64 DER text (metadata style) or DER bytes. */
export function parseCertificate(input: string | Uint8Array): X509Certificate {
  if (typeof input !== "string") return new X509Certificate(Buffer.from(input));
  if (input.includes("-----BEGIN")) return new X509Certificate(input);
  const der = decodeBase64Lenient(input);
  if (!der) throw new Error("Certificate text is neither PEM nor base64 DER");
  return new X509Certificate(der);
}

export interface CertificateChainInput {
  /** DER certificates as sent in TAG_ATTESTATION_CERT: the attestation certificate first, then issuers. */
  certificates: readonly Uint8Array[];
  /** Trust anchors: PEM, base64 DER or DER. A chain may end in one of them or in a certificate one issued. */
  trustedRoots: readonly (string | Uint8Array)[];
  /** The verification time (injectable, so expired public vectors can be tested). */
  now: Date;
}

/**
 * Checks leaf → … → trusted root: every certificate valid at `now`, each issued and signed by the next,
 * every issuer inside the chain a CA, and the last one either a trusted root itself (a self-signed leaf
 * listed as a root is common) or issued and signed by one that is valid at `now`. Returns the parsed
 * chain, leaf first. Failures are UafError 1496. Not a full RFC 5280 path validation: no name
 * constraints, policies or revocation.
 */
export function verifyCertificateChain(input: CertificateChainInput): X509Certificate[] {
  const { certificates, now } = input;
  if (certificates.length === 0 || certificates.length > MAX_CHAIN_LENGTH) {
    throw untrusted(`An attestation chain holds 1 to ${MAX_CHAIN_LENGTH} certificates`);
  }
  const chain = certificates.map((der, index) => {
    try {
      return new X509Certificate(Buffer.from(der));
    } catch (error) {
      throw untrusted(`Attestation certificate ${index} does not parse`, error);
    }
  });
  const roots = input.trustedRoots.map((root) => parseCertificate(root));

  chain.forEach((certificate, index) => assertValidAt(certificate, now, `Attestation certificate ${index}`));
  for (let index = 0; index + 1 < chain.length; index++) {
    const child = chain[index] as X509Certificate;
    const issuer = chain[index + 1] as X509Certificate;
    if (!issuer.ca) throw untrusted(`Attestation certificate ${index + 1} is not a CA`);
    if (!child.checkIssued(issuer) || !child.verify(issuer.publicKey)) {
      throw untrusted(`Attestation certificate ${index} is not issued by certificate ${index + 1}`);
    }
  }

  const last = chain[chain.length - 1] as X509Certificate;
  if (roots.some((root) => root.raw.equals(last.raw))) return chain;
  const anchor = roots.find((root) => last.checkIssued(root) && last.verify(root.publicKey));
  if (!anchor) throw untrusted("The attestation chain does not end at a trusted root");
  assertValidAt(anchor, now, "The trusted root");
  return chain;
}

/** OID of the id-fido-gen-ce-aaid certificate extension (fido-uaf-protocol-v1.1 §3.4.6.5 / metadata). */
export const FIDO_AAID_EXTENSION_OID = "1.3.6.1.4.1.45724.1.1.1";

export interface BasicFullInput extends CertificateChainInput {
  /** The whole KRD TLV. */
  krd: Uint8Array;
  signature: Uint8Array;
  signAlg: number;
  /** The KRD's AAID: when the leaf carries the id-fido-gen-ce-aaid extension, it must match. */
  aaid: string;
}

/** TAG_ATTESTATION_BASIC_FULL: chain to a trusted root, then the leaf's signature over the KRD. */
export function verifyBasicFullAttestation(input: BasicFullInput): X509Certificate[] {
  const chain = verifyCertificateChain(input);
  const leaf = chain[0] as X509Certificate;
  const certifiedAaid = readAaidExtension(leaf);
  if (certifiedAaid !== undefined && certifiedAaid.toUpperCase() !== input.aaid.toUpperCase()) {
    throw untrusted(`The attestation certificate is for AAID ${certifiedAaid}, not ${input.aaid}`);
  }
  try {
    checkKeyForAlgorithm(leaf.publicKey, input.signAlg);
  } catch (error) {
    if (error instanceof UafError && error.code === UafStatus.UNACCEPTABLE_ALGORITHM) throw error;
    throw badAttestationSignature("The attestation key does not fit the signature algorithm", error);
  }
  if (!verifySignature(input.signAlg, input.krd, leaf.publicKey, input.signature)) {
    throw badAttestationSignature("The attestation signature over the KRD does not verify");
  }
  return chain;
}

/** TAG_ATTESTATION_BASIC_SURROGATE: the new key (UAuth.pub) signs its own KRD. */
export function verifyBasicSurrogateAttestation(input: {
  krd: Uint8Array;
  signature: Uint8Array;
  signAlg: number;
  publicKey: KeyObject;
}): void {
  if (!verifySignature(input.signAlg, input.krd, input.publicKey, input.signature)) {
    throw badAttestationSignature("The surrogate attestation signature over the KRD does not verify");
  }
}

function readAaidExtension(certificate: X509Certificate): string | undefined {
  let value: Buffer | undefined;
  try {
    value = findCertificateExtension(certificate.raw, FIDO_AAID_EXTENSION_OID);
  } catch (error) {
    throw untrusted("The attestation certificate's extensions do not parse", error);
  }
  if (value === undefined) return undefined;
  try {
    return unwrapOctetString(value).toString("latin1");
  } catch {
    return value.toString("latin1");
  }
}

function assertValidAt(certificate: X509Certificate, now: Date, what: string): void {
  const from = new Date(certificate.validFrom).getTime();
  const to = new Date(certificate.validTo).getTime();
  if (Number.isNaN(from) || Number.isNaN(to)) throw untrusted(`${what} has unreadable validity dates`);
  const time = now.getTime();
  if (time < from || time > to) {
    throw new UafError(
      UafStatus.UNACCEPTABLE_ATTESTATION,
      "attestation_expired",
      `${what} is not valid at ${now.toISOString()} (valid ${certificate.validFrom} to ${certificate.validTo})`,
    );
  }
}

function rsaOptions(key: KeyObject, signAlg: number) {
  return RSA_PSS.has(signAlg)
    ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: PSS_SALT_LENGTH }
    : RSA_PKCS1.has(signAlg)
      ? { key, padding: constants.RSA_PKCS1_PADDING }
      : { key };
}

function leftPad(bytes: Buffer, size: number): Buffer {
  return bytes.length >= size ? bytes : Buffer.concat([Buffer.alloc(size - bytes.length), bytes]);
}

/** OpenSSL's refusals (a key that cannot do this padding, a malformed signature), not programming errors. */
function isOpenSslError(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && (code.startsWith("ERR_OSSL") || code.startsWith("ERR_CRYPTO"));
}

const hex = (value: number) => `0x${value.toString(16).toUpperCase().padStart(4, "0")}`;

function badKey(message: string, cause?: unknown): UafError {
  return new UafError(UafStatus.UNACCEPTABLE_KEY, "bad_public_key", message, { cause });
}

function untrusted(message: string, cause?: unknown): UafError {
  return new UafError(UafStatus.UNACCEPTABLE_ATTESTATION, "attestation_untrusted", message, { cause });
}

function badAttestationSignature(message: string, cause?: unknown): UafError {
  return new UafError(UafStatus.UNACCEPTABLE_ATTESTATION, "attestation_signature_invalid", message, {
    cause,
  });
}
