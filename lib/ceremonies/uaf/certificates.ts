import { X509Certificate, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import {
  derBitString,
  derBoolean,
  derExplicit,
  derOctetString,
  derOid,
  derSequence,
  derSet,
  derTime,
  derUnsignedInteger,
  derUtf8,
} from "./der";
import { FIDO_AAID_EXTENSION_OID } from "./crypto";

/**
 * Minimal X.509 v3 issuance (ECDSA P-256 / SHA-256) for test attestation CAs: Node can verify
 * certificates but not create them, and Sesame takes no dependency just for tests and the demo.
 */

const OID = {
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
} as const;

export interface CertificateSubject {
  commonName: string;
  organization?: string;
}

export interface IssuedCertificate {
  der: Buffer;
  pem: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface IssueOptions {
  subject: CertificateSubject;
  /** The issuer's name and key; omitted for a self-signed certificate. */
  issuer?: { subject: CertificateSubject; privateKey: KeyObject };
  /** The subject's key pair; a new P-256 pair when omitted. */
  keyPair?: { privateKey: KeyObject; publicKey: KeyObject };
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  /** Adds the id-fido-gen-ce-aaid extension (attestation certificates). */
  aaid?: string;
}

export function issueCertificate(options: IssueOptions): IssuedCertificate {
  const keyPair = options.keyPair ?? generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signer = options.issuer ?? { subject: options.subject, privateKey: keyPair.privateKey };
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  const algorithm = derSequence(derOid(OID.ecdsaWithSha256));

  const extensions = [
    extension(OID.basicConstraints, true, options.isCa ? derSequence(derBoolean(true)) : derSequence()),
    // keyCertSign + cRLSign for a CA (bits 5, 6), digitalSignature (bit 0) otherwise.
    extension(
      OID.keyUsage,
      true,
      options.isCa ? derBitString(Buffer.from([0x06]), 1) : derBitString(Buffer.from([0x80]), 7),
    ),
  ];
  if (options.aaid) {
    extensions.push(
      extension(FIDO_AAID_EXTENSION_OID, false, derOctetString(Buffer.from(options.aaid, "latin1"))),
    );
  }

  const tbs = derSequence(
    derExplicit(0, derUnsignedInteger(Buffer.from([2]))), // v3
    derUnsignedInteger(serial),
    algorithm,
    name(signer.subject),
    derSequence(derTime(options.notBefore), derTime(options.notAfter)),
    name(options.subject),
    keyPair.publicKey.export({ format: "der", type: "spki" }),
    derExplicit(3, derSequence(...extensions)),
  );
  const signature = sign("sha256", tbs, { key: signer.privateKey, dsaEncoding: "der" });
  const der = derSequence(tbs, algorithm, derBitString(signature));
  return { der, pem: new X509Certificate(der).toString(), ...keyPair };
}

export interface TestAttestationCa {
  root: IssuedCertificate;
  subject: CertificateSubject;
}

/** A self-signed P-256 root valid from `notBefore` to `notAfter`. */
export function createTestAttestationCa(options: {
  commonName?: string;
  notBefore: Date;
  notAfter: Date;
}): TestAttestationCa {
  const subject = {
    commonName: options.commonName ?? "Sesame UAF test attestation root",
    organization: "Sesame",
  };
  const root = issueCertificate({
    subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    isCa: true,
  });
  return { root, subject };
}

/** A P-256 attestation certificate for `aaid`, issued by the test CA. */
export function issueAttestationCertificate(
  ca: TestAttestationCa,
  options: {
    aaid: string;
    notBefore: Date;
    notAfter: Date;
    keyPair?: { privateKey: KeyObject; publicKey: KeyObject };
  },
): IssuedCertificate {
  return issueCertificate({
    subject: { commonName: `Sesame UAF attestation ${options.aaid}`, organization: "Sesame" },
    issuer: { subject: ca.subject, privateKey: ca.root.privateKey },
    keyPair: options.keyPair,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    isCa: false,
    aaid: options.aaid,
  });
}

function name(subject: CertificateSubject): Buffer {
  const rdns = [derSet(derSequence(derOid(OID.commonName), derUtf8(subject.commonName)))];
  if (subject.organization) {
    rdns.unshift(derSet(derSequence(derOid(OID.organization), derUtf8(subject.organization))));
  }
  return derSequence(...rdns);
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? derSequence(derOid(oid), derBoolean(true), derOctetString(value))
    : derSequence(derOid(oid), derOctetString(value));
}
