import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64Lenient } from "./encoding";
import { vectorA, vectorB } from "./fixtures/public-vectors";
import {
  Tag,
  TlvError,
  decodeTlv,
  decodeTlvSequence,
  encodeTlv,
  encodeTlvNode,
  parseAuthAssertion,
  parseRegAssertion,
  uint16le,
  uint32le,
  type TlvErrorCode,
} from "./tlv";

const bytes = (base64: string) => decodeBase64Lenient(base64) as Buffer;

function tlvError(run: () => unknown): TlvErrorCode {
  try {
    run();
  } catch (error) {
    if (error instanceof TlvError) return error.code;
    throw error;
  }
  throw new Error("expected a TlvError");
}

/** A minimal, well-formed authentication assertion to mutate. */
function authAssertion(extra: { signedData?: Buffer[]; outer?: Buffer[] } = {}): Buffer {
  const signedData = encodeTlv(
    Tag.UAFV1_SIGNED_DATA,
    encodeTlv(Tag.AAID, Buffer.from("FFFF#0001")),
    encodeTlv(Tag.ASSERTION_INFO, uint16le(1), Buffer.from([1]), uint16le(1)),
    encodeTlv(Tag.AUTHENTICATOR_NONCE, randomBytes(8)),
    encodeTlv(Tag.FINAL_CHALLENGE_HASH, randomBytes(32)),
    encodeTlv(Tag.TRANSACTION_CONTENT_HASH),
    encodeTlv(Tag.KEYID, randomBytes(32)),
    encodeTlv(Tag.COUNTERS, uint32le(7)),
    ...(extra.signedData ?? []),
  );
  return encodeTlv(
    Tag.UAFV1_AUTH_ASSERTION,
    signedData,
    encodeTlv(Tag.SIGNATURE, randomBytes(64)),
    ...(extra.outer ?? []),
  );
}

describe("encodeTlv / decodeTlv", () => {
  it("writes tag and length little-endian", () => {
    const encoded = encodeTlv(0x3e01, Buffer.alloc(750));
    expect(encoded.subarray(0, 4).toString("hex")).toBe("013eee02");
    expect(encodeTlv(Tag.KEYID).toString("hex")).toBe("092e0000");
  });

  it("round-trips nested structures byte for byte", () => {
    for (let round = 0; round < 20; round++) {
      const leaves = Array.from({ length: 1 + (round % 5) }, (_, i) =>
        encodeTlv(Tag.KEYID + (i % 3), randomBytes((round * 7 + i) % 40)),
      );
      const encoded = encodeTlv(
        Tag.UAFV1_REG_ASSERTION,
        encodeTlv(Tag.UAFV1_KRD, ...leaves),
        encodeTlv(Tag.SIGNATURE),
      );
      const decoded = decodeTlv(encoded);
      expect(encodeTlvNode(decoded).equals(encoded)).toBe(true);
      expect(decoded.children?.[0]?.children).toHaveLength(leaves.length);
      expect(
        decoded.children?.[0]?.raw.equals(encoded.subarray(4, 4 + 4 + Buffer.concat(leaves).length)),
      ).toBe(true);
    }
  });

  it("round-trips the public vectors", () => {
    for (const assertion of [
      vectorA.reg.assertion,
      vectorA.auth.assertion,
      vectorB.reg.assertion,
      vectorB.auth.assertion,
    ]) {
      const input = bytes(assertion);
      expect(encodeTlvNode(decodeTlv(input)).equals(input)).toBe(true);
    }
  });

  it("refuses values longer than a UINT16 and tags outside it", () => {
    expect(tlvError(() => encodeTlv(Tag.SIGNATURE, Buffer.alloc(65_536)))).toBe("tlv.value_too_long");
    expect(encodeTlv(Tag.SIGNATURE, Buffer.alloc(65_535))).toHaveLength(65_539);
    expect(tlvError(() => encodeTlv(0x10000))).toBe("tlv.bad_tag");
    expect(tlvError(() => encodeTlv(-1))).toBe("tlv.bad_tag");
  });

  it("refuses empty input, truncated headers and lengths that overrun", () => {
    const valid = encodeTlv(Tag.UAFV1_KRD, encodeTlv(Tag.AAID, Buffer.from("FFFF#0001")));
    expect(tlvError(() => decodeTlv(Buffer.alloc(0)))).toBe("tlv.empty");
    expect(tlvError(() => decodeTlv(valid.subarray(0, 3)))).toBe("tlv.truncated");
    expect(tlvError(() => decodeTlv(valid.subarray(0, valid.length - 1)))).toBe("tlv.length_overrun");
    // A child that claims more than its parent holds, although the buffer has more bytes after it.
    const overrun = Buffer.concat([
      encodeTlv(Tag.UAFV1_KRD, Buffer.from([0x0b, 0x2e, 0x10, 0x00])),
      Buffer.alloc(16),
    ]);
    expect(tlvError(() => decodeTlvSequence(overrun))).toBe("tlv.length_overrun");
    // 1–3 stray bytes at the end of a composite are a truncated header.
    const stray = encodeTlv(
      Tag.UAFV1_KRD,
      encodeTlv(Tag.AAID, Buffer.from("FFFF#0001")),
      Buffer.from([1, 2]),
    );
    expect(tlvError(() => decodeTlv(stray))).toBe("tlv.truncated");
  });

  it("refuses bytes after the outermost element", () => {
    const valid = authAssertion();
    expect(tlvError(() => decodeTlv(Buffer.concat([valid, Buffer.from([0])])))).toBe("tlv.truncated");
    expect(tlvError(() => decodeTlv(Buffer.concat([valid, encodeTlv(Tag.SIGNATURE)])))).toBe(
      "tlv.trailing_bytes",
    );
    expect(decodeTlvSequence(Buffer.concat([valid, encodeTlv(Tag.SIGNATURE)]))).toHaveLength(2);
  });

  it("limits nesting depth", () => {
    let nested = encodeTlv(Tag.KEYID, Buffer.from([1]));
    for (let depth = 0; depth < 9; depth++) nested = encodeTlv(Tag.UAFV1_REG_ASSERTION, nested);
    expect(tlvError(() => decodeTlv(nested))).toBe("tlv.too_deep");
    expect(() => decodeTlv(nested, { maxDepth: 10 })).not.toThrow();
  });

  it("refuses unknown critical tags, skips unknown non-critical ones", () => {
    const critical = encodeTlv(Tag.UAFV1_KRD, encodeTlv(0x2eff, Buffer.from([1])));
    expect(tlvError(() => decodeTlv(critical))).toBe("tlv.unknown_critical_tag");
    const nonCritical = encodeTlv(Tag.UAFV1_KRD, encodeTlv(0x0eff, Buffer.from([1])));
    expect(decodeTlv(nonCritical).children?.[0]?.tag).toBe(0x0eff);
  });

  it("tolerates the vendor tags 0x3FFC/0x3FFD only inside signed data, without descending into them", () => {
    const vendor = encodeTlv(0x3ffc, Buffer.from("not a TLV at all"));
    const inside = authAssertion({ signedData: [vendor] });
    expect(parseAuthAssertion(inside).vendorTags).toEqual([0x3ffc]);
    expect(tlvError(() => parseAuthAssertion(authAssertion({ outer: [vendor] })))).toBe(
      "tlv.unknown_critical_tag",
    );
    expect(tlvError(() => decodeTlv(inside, { tolerate: () => false }))).toBe("tlv.unknown_critical_tag");
  });
});

describe("parseRegAssertion / parseAuthAssertion", () => {
  it("reads vector A's registration", () => {
    const reg = parseRegAssertion(bytes(vectorA.reg.assertion));
    expect(reg.aaid).toBe("ABCD#ABCD");
    expect(reg.authenticatorVersion).toBe(256);
    expect(reg.authenticationMode).toBe(1);
    expect(reg.signatureAlgAndEncoding).toBe(0x0001);
    expect(reg.publicKeyAlgAndEncoding).toBe(0x0100);
    expect(reg.finalChallengeHash.toString("hex")).toBe(vectorA.reg.finalChallengeHashHex);
    expect(reg.keyId.toString("base64url")).toBe(vectorA.keyId);
    expect(reg.publicKey.toString("base64url")).toBe(vectorA.publicKey);
    expect([reg.signCounter, reg.regCounter]).toEqual([1, 1]);
    expect(reg.attestation.type).toBe("basic_full");
    expect(reg.krd.subarray(0, 4).toString("hex")).toBe("033eb100");
    expect(reg.krd).toHaveLength(0xb1 + 4);
  });

  it("reads vector A's authentication", () => {
    const auth = parseAuthAssertion(bytes(vectorA.auth.assertion));
    expect(auth.aaid).toBe("ABCD#ABCD");
    expect(auth.authenticationMode).toBe(1);
    expect(auth.authenticatorNonce).toHaveLength(32);
    expect(auth.finalChallengeHash.toString("hex")).toBe(vectorA.auth.finalChallengeHashHex);
    expect(auth.transactionContentHash).toHaveLength(0);
    expect(auth.keyId.toString("base64url")).toBe(vectorA.keyId);
    expect(auth.signCounter).toBe(2);
    expect(auth.signature).toHaveLength(64);
    expect(auth.signedData.subarray(0, 2).toString("hex")).toBe("043e");
  });

  it("reads vector B with its vendor tags, DER key and zero counters", () => {
    const reg = parseRegAssertion(bytes(vectorB.reg.assertion));
    expect(reg.aaid).toBe("EBA0#0001");
    expect(reg.vendorTags).toEqual([0x3ffc, 0x3ffd]);
    expect([reg.signatureAlgAndEncoding, reg.publicKeyAlgAndEncoding]).toEqual([0x0002, 0x0101]);
    expect(reg.publicKey).toHaveLength(91);
    expect(reg.keyId).toHaveLength(44);
    expect([reg.signCounter, reg.regCounter]).toEqual([0, 0]);
    const auth = parseAuthAssertion(bytes(vectorB.auth.assertion));
    expect(auth.authenticatorNonce).toHaveLength(8);
    expect(auth.keyId.equals(reg.keyId)).toBe(true);
  });

  it("accepts any order of the fields", () => {
    const decoded = decodeTlv(authAssertion());
    const signedData = decoded.children?.[0];
    const reversed = encodeTlv(
      Tag.UAFV1_AUTH_ASSERTION,
      encodeTlv(Tag.SIGNATURE, randomBytes(64)),
      encodeTlv(
        Tag.UAFV1_SIGNED_DATA,
        ...[...(signedData?.children ?? [])].reverse().map((child) => child.raw),
      ),
    );
    expect(parseAuthAssertion(reversed).signCounter).toBe(7);
  });

  it("refuses wrong outer tags, missing, duplicate and misplaced fields, and wrong fixed lengths", () => {
    expect(tlvError(() => parseRegAssertion(authAssertion()))).toBe("tlv.unexpected_tag");
    expect(
      tlvError(() =>
        parseAuthAssertion(authAssertion({ signedData: [encodeTlv(Tag.KEYID, randomBytes(4))] })),
      ),
    ).toBe("tlv.duplicate_tag");
    expect(
      tlvError(() =>
        parseAuthAssertion(authAssertion({ signedData: [encodeTlv(Tag.PUB_KEY, randomBytes(4))] })),
      ),
    ).toBe("tlv.unexpected_tag");
    const withoutCounters = encodeTlv(
      Tag.UAFV1_AUTH_ASSERTION,
      encodeTlv(
        Tag.UAFV1_SIGNED_DATA,
        ...(decodeTlv(authAssertion()).children?.[0]?.children ?? [])
          .filter((child) => child.tag !== Tag.COUNTERS)
          .map((child) => child.raw),
      ),
      encodeTlv(Tag.SIGNATURE, randomBytes(64)),
    );
    expect(tlvError(() => parseAuthAssertion(withoutCounters))).toBe("tlv.missing_tag");

    const reg = decodeTlv(bytes(vectorA.reg.assertion));
    const [krd, attestation] = reg.children ?? [];
    const shortInfo = (krd?.children ?? []).map((child) =>
      child.tag === Tag.ASSERTION_INFO
        ? encodeTlv(Tag.ASSERTION_INFO, child.value.subarray(0, 5))
        : child.raw,
    );
    const broken = encodeTlv(
      Tag.UAFV1_REG_ASSERTION,
      encodeTlv(Tag.UAFV1_KRD, ...shortInfo),
      attestation?.raw ?? Buffer.alloc(0),
    );
    expect(tlvError(() => parseRegAssertion(broken))).toBe("tlv.bad_length");
    const twoAttestations = encodeTlv(
      Tag.UAFV1_REG_ASSERTION,
      krd?.raw ?? Buffer.alloc(0),
      attestation?.raw ?? Buffer.alloc(0),
      encodeTlv(Tag.ATTESTATION_BASIC_SURROGATE, encodeTlv(Tag.SIGNATURE, randomBytes(64))),
    );
    expect(tlvError(() => parseRegAssertion(twoAttestations))).toBe("tlv.duplicate_tag");
  });

  it("refuses a malformed AAID", () => {
    const bad = decodeTlv(authAssertion());
    const children = (bad.children?.[0]?.children ?? []).map((child) =>
      child.tag === Tag.AAID ? encodeTlv(Tag.AAID, Buffer.from("FFFF-0001")) : child.raw,
    );
    const assertion = encodeTlv(
      Tag.UAFV1_AUTH_ASSERTION,
      encodeTlv(Tag.UAFV1_SIGNED_DATA, ...children),
      encodeTlv(Tag.SIGNATURE, randomBytes(64)),
    );
    expect(tlvError(() => parseAuthAssertion(assertion))).toBe("tlv.bad_value");
  });

  it("parses extensions, signed and unsigned", () => {
    const extension = (tag: number, id: string) =>
      encodeTlv(
        tag,
        encodeTlv(Tag.EXTENSION_ID, Buffer.from(id)),
        encodeTlv(Tag.EXTENSION_DATA, Buffer.from([1, 2])),
      );
    const parsed = parseAuthAssertion(
      authAssertion({
        signedData: [extension(Tag.EXTENSION, "critical-ext")],
        outer: [extension(Tag.EXTENSION_NON_CRITICAL, "other-ext")],
      }),
    );
    expect(parsed.signedExtensions).toEqual([
      { id: "critical-ext", data: Buffer.from([1, 2]), critical: true },
    ]);
    expect(parsed.unsignedExtensions).toEqual([
      { id: "other-ext", data: Buffer.from([1, 2]), critical: false },
    ]);
  });
});
