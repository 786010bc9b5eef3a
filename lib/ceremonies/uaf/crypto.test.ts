import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestAttestationCa, issueAttestationCertificate, issueCertificate } from "./certificates";
import {
  AlgKey,
  AlgSign,
  exportPublicKey,
  importPublicKey,
  parseCertificate,
  signData,
  verifyBasicFullAttestation,
  verifyBasicSurrogateAttestation,
  verifyCertificateChain,
  verifySignature,
} from "./crypto";
import { derOctetString, derSequence } from "./der";
import { uafError } from "./fixtures/uaf-error";

const ec = (namedCurve: string) => generateKeyPairSync("ec", { namedCurve });
const rsa2048 = generateKeyPairSync("rsa", { modulusLength: 2048 });
const p256 = ec("P-256");
const k256 = ec("secp256k1");
const data = Buffer.from("the whole KRD or SignedData TLV");

const cases: { alg: number; keys: { privateKey: KeyObject; publicKey: KeyObject }; encodings: number[] }[] = [
  {
    alg: AlgSign.SECP256R1_ECDSA_SHA256_RAW,
    keys: p256,
    encodings: [AlgKey.ECC_X962_RAW, AlgKey.ECC_X962_DER],
  },
  {
    alg: AlgSign.SECP256R1_ECDSA_SHA256_DER,
    keys: p256,
    encodings: [AlgKey.ECC_X962_RAW, AlgKey.ECC_X962_DER],
  },
  {
    alg: AlgSign.SECP256K1_ECDSA_SHA256_RAW,
    keys: k256,
    encodings: [AlgKey.ECC_X962_RAW, AlgKey.ECC_X962_DER],
  },
  {
    alg: AlgSign.SECP256K1_ECDSA_SHA256_DER,
    keys: k256,
    encodings: [AlgKey.ECC_X962_RAW, AlgKey.ECC_X962_DER],
  },
  {
    alg: AlgSign.RSASSA_PSS_SHA256_RAW,
    keys: rsa2048,
    encodings: [AlgKey.RSA_2048_RAW, AlgKey.RSA_2048_DER],
  },
  {
    alg: AlgSign.RSASSA_PSS_SHA256_DER,
    keys: rsa2048,
    encodings: [AlgKey.RSA_2048_RAW, AlgKey.RSA_2048_DER],
  },
  {
    alg: AlgSign.RSA_EMSA_PKCS1_SHA256_RAW,
    keys: rsa2048,
    encodings: [AlgKey.RSA_2048_RAW, AlgKey.RSA_2048_DER],
  },
  {
    alg: AlgSign.RSA_EMSA_PKCS1_SHA256_DER,
    keys: rsa2048,
    encodings: [AlgKey.RSA_2048_RAW, AlgKey.RSA_2048_DER],
  },
];

describe("signatures", () => {
  for (const { alg, keys, encodings } of cases) {
    for (const encoding of encodings) {
      it(`alg 0x${alg.toString(16)} with key encoding 0x${encoding.toString(16)}: verifies, refuses tampering`, () => {
        const key = importPublicKey(exportPublicKey(keys.publicKey, encoding), encoding, alg);
        const signature = signData(alg, data, keys.privateKey);
        expect(verifySignature(alg, data, key, signature)).toBe(true);
        expect(verifySignature(alg, Buffer.concat([data, Buffer.from([0])]), key, signature)).toBe(false);
        const tampered = Buffer.from(signature);
        tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
        expect(verifySignature(alg, data, key, tampered)).toBe(false);
        expect(verifySignature(alg, data, key, signature.subarray(0, signature.length - 1))).toBe(false);
        expect(verifySignature(alg, data, key, Buffer.alloc(0))).toBe(false);
      });
    }
  }

  it("uses the raw r||s form for *_RAW and DER for *_DER", () => {
    expect(signData(AlgSign.SECP256R1_ECDSA_SHA256_RAW, data, p256.privateKey)).toHaveLength(64);
    expect(signData(AlgSign.SECP256R1_ECDSA_SHA256_DER, data, p256.privateKey)[0]).toBe(0x30);
    const pss = signData(AlgSign.RSASSA_PSS_SHA256_DER, data, rsa2048.privateKey);
    expect(pss.subarray(0, 4).toString("hex")).toBe("04820100");
  });

  it("accepts an SPKI under RSA_2048_DER (seen in the wild)", () => {
    const spki = rsa2048.publicKey.export({ format: "der", type: "spki" });
    const key = importPublicKey(spki, AlgKey.RSA_2048_DER, AlgSign.RSASSA_PSS_SHA256_DER);
    const signature = signData(AlgSign.RSASSA_PSS_SHA256_DER, data, rsa2048.privateKey);
    expect(verifySignature(AlgSign.RSASSA_PSS_SHA256_DER, data, key, signature)).toBe(true);
  });

  it("refuses unsupported algorithms and encodings with 1495", () => {
    const raw = exportPublicKey(p256.publicKey, AlgKey.ECC_X962_RAW);
    expect(uafError(() => importPublicKey(raw, AlgKey.ECC_X962_RAW, AlgSign.SM2_SM3_RAW))).toEqual([
      1495,
      "unsupported_algorithm",
    ]);
    expect(uafError(() => importPublicKey(raw, AlgKey.COSE, AlgSign.SECP256R1_ECDSA_SHA256_RAW))).toEqual([
      1495,
      "unsupported_algorithm",
    ]);
    const key = importPublicKey(raw, AlgKey.ECC_X962_RAW, AlgSign.SECP256R1_ECDSA_SHA256_RAW);
    expect(uafError(() => verifySignature(0x0010, data, key, Buffer.alloc(96)))).toEqual([
      1495,
      "unsupported_algorithm",
    ]);
  });

  it("refuses keys that do not fit with 1494", () => {
    const raw = exportPublicKey(p256.publicKey, AlgKey.ECC_X962_RAW);
    const notOnCurve = Buffer.from(raw);
    notOnCurve[64] = (notOnCurve[64] ?? 0) ^ 1;
    const cases: [Uint8Array, number, number][] = [
      [notOnCurve, AlgKey.ECC_X962_RAW, AlgSign.SECP256R1_ECDSA_SHA256_RAW],
      [raw.subarray(1), AlgKey.ECC_X962_RAW, AlgSign.SECP256R1_ECDSA_SHA256_RAW],
      [raw, AlgKey.ECC_X962_RAW, AlgSign.RSASSA_PSS_SHA256_RAW],
      [
        exportPublicKey(k256.publicKey, AlgKey.ECC_X962_DER),
        AlgKey.ECC_X962_DER,
        AlgSign.SECP256R1_ECDSA_SHA256_DER,
      ],
      [
        exportPublicKey(p256.publicKey, AlgKey.ECC_X962_DER),
        AlgKey.RSA_2048_DER,
        AlgSign.RSASSA_PSS_SHA256_DER,
      ],
      [
        generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({
          format: "der",
          type: "pkcs1",
        }),
        AlgKey.RSA_2048_DER,
        AlgSign.RSASSA_PSS_SHA256_DER,
      ],
      [Buffer.from("garbage"), AlgKey.ECC_X962_DER, AlgSign.SECP256R1_ECDSA_SHA256_DER],
    ];
    for (const [bytes, encoding, alg] of cases) {
      expect(uafError(() => importPublicKey(bytes, encoding, alg))).toEqual([1494, "bad_public_key"]);
    }
  });

  it("treats a malformed DER wrapper as a failed verification", () => {
    const key = rsa2048.publicKey;
    const signature = signData(AlgSign.RSASSA_PSS_SHA256_DER, data, rsa2048.privateKey);
    expect(verifySignature(AlgSign.RSASSA_PSS_SHA256_DER, data, key, derSequence(signature))).toBe(false);
    expect(
      verifySignature(AlgSign.RSASSA_PSS_SHA256_DER, data, key, Buffer.concat([signature, Buffer.from([0])])),
    ).toBe(false);
    expect(verifySignature(AlgSign.RSASSA_PSS_SHA256_RAW, data, key, derOctetString(Buffer.alloc(256)))).toBe(
      false,
    );
  });
});

describe("attestation", () => {
  const day = 24 * 3600 * 1000;
  const now = new Date("2030-01-15T12:00:00Z");
  const notBefore = new Date(now.getTime() - 30 * day);
  const notAfter = new Date(now.getTime() + 30 * day);
  const ca = createTestAttestationCa({ notBefore, notAfter });
  const leaf = issueAttestationCertificate(ca, { aaid: "FFFF#0001", notBefore, notAfter });
  const krd = Buffer.from("a KRD");
  const alg = AlgSign.SECP256R1_ECDSA_SHA256_RAW;
  const signature = signData(alg, krd, leaf.privateKey);
  const full = {
    krd,
    signature,
    signAlg: alg,
    certificates: [leaf.der],
    trustedRoots: [ca.root.pem],
    now,
    aaid: "FFFF#0001",
  };

  it("verifies basic full attestation against a trusted root", () => {
    expect(verifyBasicFullAttestation(full)).toHaveLength(1);
    // Roots as metadata lists them: base64 DER.
    expect(() =>
      verifyBasicFullAttestation({ ...full, trustedRoots: [ca.root.der.toString("base64")] }),
    ).not.toThrow();
    // A chain that includes the root itself.
    expect(() =>
      verifyBasicFullAttestation({ ...full, certificates: [leaf.der, ca.root.der] }),
    ).not.toThrow();
  });

  it("honours the injected clock", () => {
    expect(
      uafError(() => verifyBasicFullAttestation({ ...full, now: new Date(notAfter.getTime() + day) })),
    ).toEqual([1496, "attestation_expired"]);
    expect(
      uafError(() => verifyBasicFullAttestation({ ...full, now: new Date(notBefore.getTime() - day) })),
    ).toEqual([1496, "attestation_expired"]);
  });

  it("refuses an untrusted root, a foreign AAID and a bad signature", () => {
    const other = createTestAttestationCa({ notBefore, notAfter });
    expect(uafError(() => verifyBasicFullAttestation({ ...full, trustedRoots: [other.root.pem] }))).toEqual([
      1496,
      "attestation_untrusted",
    ]);
    expect(uafError(() => verifyBasicFullAttestation({ ...full, trustedRoots: [] }))).toEqual([
      1496,
      "attestation_untrusted",
    ]);
    expect(uafError(() => verifyBasicFullAttestation({ ...full, aaid: "FFFF#0002" }))).toEqual([
      1496,
      "attestation_untrusted",
    ]);
    expect(uafError(() => verifyBasicFullAttestation({ ...full, krd: Buffer.from("another KRD") }))).toEqual([
      1496,
      "attestation_signature_invalid",
    ]);
    expect(
      uafError(() => verifyBasicFullAttestation({ ...full, certificates: [Buffer.from("not DER")] })),
    ).toEqual([1496, "attestation_untrusted"]);
  });

  it("walks intermediates, which must be CAs", () => {
    const intermediate = issueCertificate({
      subject: { commonName: "Intermediate" },
      issuer: { subject: ca.subject, privateKey: ca.root.privateKey },
      notBefore,
      notAfter,
      isCa: true,
    });
    const issuedByIntermediate = issueCertificate({
      subject: { commonName: "Leaf" },
      issuer: { subject: { commonName: "Intermediate" }, privateKey: intermediate.privateKey },
      notBefore,
      notAfter,
      isCa: false,
    });
    const chain = [issuedByIntermediate.der, intermediate.der];
    expect(verifyCertificateChain({ certificates: chain, trustedRoots: [ca.root.pem], now })).toHaveLength(2);
    expect(
      uafError(() =>
        verifyCertificateChain({
          certificates: [issuedByIntermediate.der],
          trustedRoots: [ca.root.pem],
          now,
        }),
      ),
    ).toEqual([1496, "attestation_untrusted"]);

    const notCa = issueCertificate({
      subject: { commonName: "Intermediate" },
      issuer: { subject: ca.subject, privateKey: ca.root.privateKey },
      keyPair: { privateKey: intermediate.privateKey, publicKey: intermediate.publicKey },
      notBefore,
      notAfter,
      isCa: false,
    });
    expect(
      uafError(() =>
        verifyCertificateChain({
          certificates: [issuedByIntermediate.der, notCa.der],
          trustedRoots: [ca.root.pem],
          now,
        }),
      ),
    ).toEqual([1496, "attestation_untrusted"]);
  });

  it("verifies basic surrogate attestation with the new key", () => {
    const surrogate = {
      krd,
      signature: signData(alg, krd, p256.privateKey),
      signAlg: alg,
      publicKey: p256.publicKey,
    };
    expect(() => verifyBasicSurrogateAttestation(surrogate)).not.toThrow();
    expect(
      uafError(() => verifyBasicSurrogateAttestation({ ...surrogate, publicKey: k256.publicKey })),
    ).toEqual([1496, "attestation_signature_invalid"]);
  });

  it("parses certificates from PEM, base64 and DER", () => {
    expect(parseCertificate(ca.root.pem).raw.equals(ca.root.der)).toBe(true);
    expect(parseCertificate(ca.root.der.toString("base64")).raw.equals(ca.root.der)).toBe(true);
    expect(parseCertificate(ca.root.der).raw.equals(ca.root.der)).toBe(true);
    expect(() => parseCertificate("%%%")).toThrow();
  });
});
