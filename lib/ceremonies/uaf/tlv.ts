/**
 * The UAFV1TLV codec (fido-uaf-authnr-cmds-v1.1 §4–5, fido-registry-v1.1): every element is
 * `UINT16 tag | UINT16 length | value[length]`, little-endian. Tags with bit 0x1000 are composite (their
 * value is more TLVs), tags with bit 0x2000 are critical (a receiver that does not understand one aborts).
 */

import { AAID_PATTERN } from "./aaid";

export const Tag = {
  UAFV1_REG_ASSERTION: 0x3e01,
  UAFV1_AUTH_ASSERTION: 0x3e02,
  UAFV1_KRD: 0x3e03,
  UAFV1_SIGNED_DATA: 0x3e04,
  ATTESTATION_CERT: 0x2e05,
  SIGNATURE: 0x2e06,
  ATTESTATION_BASIC_FULL: 0x3e07,
  ATTESTATION_BASIC_SURROGATE: 0x3e08,
  ATTESTATION_ECDAA: 0x3e09,
  ATTESTATION_ATTCA: 0x3e0a,
  KEYID: 0x2e09,
  FINAL_CHALLENGE_HASH: 0x2e0a,
  AAID: 0x2e0b,
  PUB_KEY: 0x2e0c,
  COUNTERS: 0x2e0d,
  ASSERTION_INFO: 0x2e0e,
  AUTHENTICATOR_NONCE: 0x2e0f,
  TRANSACTION_CONTENT_HASH: 0x2e10,
  EXTENSION: 0x3e11,
  EXTENSION_NON_CRITICAL: 0x3e12,
  EXTENSION_ID: 0x2e13,
  EXTENSION_DATA: 0x2e14,
} as const;

export type TagValue = (typeof Tag)[keyof typeof Tag];

export const COMPOSITE_BIT = 0x1000;
export const CRITICAL_BIT = 0x2000;

/** Tags whose value is parsed as nested TLVs. Only these: vendor tags may carry the bit over plain bytes. */
export const COMPOSITE_TAGS: ReadonlySet<number> = new Set([
  Tag.UAFV1_REG_ASSERTION,
  Tag.UAFV1_AUTH_ASSERTION,
  Tag.UAFV1_KRD,
  Tag.UAFV1_SIGNED_DATA,
  Tag.ATTESTATION_BASIC_FULL,
  Tag.ATTESTATION_BASIC_SURROGATE,
  Tag.ATTESTATION_ECDAA,
  Tag.ATTESTATION_ATTCA,
  Tag.EXTENSION,
  Tag.EXTENSION_NON_CRITICAL,
]);

export const KNOWN_TAGS: ReadonlySet<number> = new Set(Object.values(Tag));

/**
 * Vendor tags seen in the wild inside the signed KRD / SignedData of eBay-derived Android clients
 * (0x3FFC device id, 0x3FFD model; fido-uaf.md §8 vector B). They carry the critical bit, but they are
 * covered by the authenticator's signature, so by default they are tolerated there (and only there).
 */
export const TOLERATED_VENDOR_TAGS: ReadonlySet<number> = new Set([0x3ffc, 0x3ffd]);

export const MAX_TLV_DEPTH = 8;
export const MAX_TLV_VALUE_LENGTH = 0xffff;

export type TlvErrorCode =
  | "tlv.empty"
  | "tlv.truncated"
  | "tlv.length_overrun"
  | "tlv.trailing_bytes"
  | "tlv.too_deep"
  | "tlv.unknown_critical_tag"
  | "tlv.unexpected_tag"
  | "tlv.missing_tag"
  | "tlv.duplicate_tag"
  | "tlv.bad_length"
  | "tlv.bad_value"
  | "tlv.bad_tag"
  | "tlv.value_too_long";

export class TlvError extends Error {
  readonly code: TlvErrorCode;
  /** Byte offset in the decoded input where the problem was found, when known. */
  readonly offset: number | undefined;

  constructor(code: TlvErrorCode, message: string, offset?: number) {
    super(offset === undefined ? message : `${message} (at byte ${offset})`);
    this.name = "TlvError";
    this.code = code;
    this.offset = offset;
  }
}

export interface TlvNode {
  readonly tag: number;
  /** Offset of the tag in the decoded input. */
  readonly offset: number;
  /** The whole element: tag, length and value. This is what UAF signs for KRD and SignedData. */
  readonly raw: Buffer;
  readonly value: Buffer;
  /** Set for the composite tags that were descended into. */
  readonly children?: readonly TlvNode[];
}

export interface DecodeTlvOptions {
  /** Tags to descend into (default COMPOSITE_TAGS). */
  composite?: ReadonlySet<number>;
  /** Tags this receiver understands (default KNOWN_TAGS). Other critical tags raise tlv.unknown_critical_tag. */
  known?: ReadonlySet<number>;
  /** Unknown critical tags accepted anyway (default: TOLERATED_VENDOR_TAGS directly inside KRD or SignedData). */
  tolerate?: (tag: number, parentTag: number | undefined) => boolean;
  /** Maximum nesting depth, the outermost element being depth 1 (default MAX_TLV_DEPTH). */
  maxDepth?: number;
}

export const tolerateVendorTagsInSignedData = (tag: number, parentTag: number | undefined): boolean =>
  TOLERATED_VENDOR_TAGS.has(tag) && (parentTag === Tag.UAFV1_KRD || parentTag === Tag.UAFV1_SIGNED_DATA);

export const isCritical = (tag: number): boolean => (tag & CRITICAL_BIT) !== 0;

export function tagName(tag: number): string {
  const name = Object.entries(Tag).find(([, value]) => value === tag)?.[0];
  const hex = `0x${tag.toString(16).toUpperCase().padStart(4, "0")}`;
  return name ? `${name} (${hex})` : hex;
}

/** Encodes one element; `values` are concatenated, so a composite is `encodeTlv(tag, encodeTlv(…), …)`. */
export function encodeTlv(tag: number, ...values: Uint8Array[]): Buffer {
  if (!Number.isInteger(tag) || tag < 0 || tag > 0xffff) {
    throw new TlvError("tlv.bad_tag", `Tag ${tag} is not a UINT16`);
  }
  const value = Buffer.concat(values);
  if (value.length > MAX_TLV_VALUE_LENGTH) {
    throw new TlvError("tlv.value_too_long", `${tagName(tag)} value of ${value.length} bytes exceeds 65535`);
  }
  const header = Buffer.alloc(4);
  header.writeUInt16LE(tag, 0);
  header.writeUInt16LE(value.length, 2);
  return Buffer.concat([header, value]);
}

export function uint16le(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16LE(value, 0);
  return out;
}

export function uint32le(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value, 0);
  return out;
}

/** Decodes exactly one element that fills the whole input (nothing before or after it). */
export function decodeTlv(bytes: Uint8Array, options: DecodeTlvOptions = {}): TlvNode {
  const nodes = decodeTlvSequence(bytes, options);
  const [first, second] = nodes;
  if (!first) throw new TlvError("tlv.empty", "No TLV element in the input");
  if (second) throw new TlvError("tlv.trailing_bytes", "Bytes after the outermost element", second.offset);
  return first;
}

/** Decodes a sequence of sibling elements that fills the whole input. */
export function decodeTlvSequence(bytes: Uint8Array, options: DecodeTlvOptions = {}): TlvNode[] {
  // A copy: the decoded nodes are views into it, so later changes to the caller's bytes cannot alter them.
  const buffer = Buffer.from(bytes);
  if (buffer.length === 0) throw new TlvError("tlv.empty", "Empty TLV input");
  const context: DecodeContext = {
    buffer,
    composite: options.composite ?? COMPOSITE_TAGS,
    known: options.known ?? KNOWN_TAGS,
    tolerate: options.tolerate ?? tolerateVendorTagsInSignedData,
    maxDepth: options.maxDepth ?? MAX_TLV_DEPTH,
  };
  return decodeRange(context, 0, buffer.length, 1, undefined);
}

interface DecodeContext {
  buffer: Buffer;
  composite: ReadonlySet<number>;
  known: ReadonlySet<number>;
  tolerate: (tag: number, parentTag: number | undefined) => boolean;
  maxDepth: number;
}

function decodeRange(
  context: DecodeContext,
  start: number,
  end: number,
  depth: number,
  parentTag: number | undefined,
): TlvNode[] {
  if (depth > context.maxDepth) {
    throw new TlvError("tlv.too_deep", `TLV nesting deeper than ${context.maxDepth} levels`, start);
  }
  const { buffer } = context;
  const nodes: TlvNode[] = [];
  let offset = start;
  while (offset < end) {
    if (offset + 4 > end) {
      throw new TlvError(
        "tlv.truncated",
        `${end - offset} bytes left where a 4-byte TLV header belongs`,
        offset,
      );
    }
    const tag = buffer.readUInt16LE(offset);
    const length = buffer.readUInt16LE(offset + 2);
    const valueEnd = offset + 4 + length;
    if (valueEnd > end) {
      throw new TlvError(
        "tlv.length_overrun",
        `${tagName(tag)} claims ${length} bytes but only ${end - offset - 4} remain`,
        offset,
      );
    }
    if (!context.known.has(tag) && isCritical(tag) && !context.tolerate(tag, parentTag)) {
      throw new TlvError("tlv.unknown_critical_tag", `Unknown critical tag ${tagName(tag)}`, offset);
    }
    const raw = buffer.subarray(offset, valueEnd);
    const node: TlvNode = context.composite.has(tag)
      ? {
          tag,
          offset,
          raw,
          value: raw.subarray(4),
          children: decodeRange(context, offset + 4, valueEnd, depth + 1, tag),
        }
      : { tag, offset, raw, value: raw.subarray(4) };
    nodes.push(node);
    offset = valueEnd;
  }
  return nodes;
}

/** Re-encodes a decoded tree (children when present, else the value). */
export function encodeTlvNode(node: Pick<TlvNode, "tag" | "value" | "children">): Buffer {
  return node.children
    ? encodeTlv(node.tag, ...node.children.map(encodeTlvNode))
    : encodeTlv(node.tag, node.value);
}

// ---------------------------------------------------------------------------------------------------
// Typed parsers for the two UAF assertions (fido-uaf-authnr-cmds-v1.1 §5.2; fido-uaf.md §3.3–3.4).

export interface TlvExtension {
  id: string;
  data: Buffer;
  /** TAG_EXTENSION (0x3E11): fail_if_unknown. TAG_EXTENSION_NON_CRITICAL (0x3E12): may be ignored. */
  critical: boolean;
}

export type RegAttestation =
  | { type: "basic_full"; signature: Buffer; certificates: Buffer[] }
  | { type: "basic_surrogate"; signature: Buffer }
  | { type: "ecdaa"; signature: Buffer }
  | { type: "attca"; signature: Buffer; certificates: Buffer[] };

export interface RegAssertion {
  /** The whole TAG_UAFV1_REG_ASSERTION element. */
  raw: Buffer;
  /** The whole TAG_UAFV1_KRD element (tag and length included): the bytes the attestation signs. */
  krd: Buffer;
  /** Upper-case `VVVV#MMMM`. */
  aaid: string;
  authenticatorVersion: number;
  authenticationMode: number;
  signatureAlgAndEncoding: number;
  publicKeyAlgAndEncoding: number;
  finalChallengeHash: Buffer;
  keyId: Buffer;
  signCounter: number;
  regCounter: number;
  publicKey: Buffer;
  /** Extensions inside the KRD (signed). */
  signedExtensions: TlvExtension[];
  /** Tolerated vendor tags found inside the KRD (signed, not interpreted). */
  vendorTags: number[];
  attestation: RegAttestation;
  /** Extensions beside the KRD (not signed). */
  unsignedExtensions: TlvExtension[];
}

export interface AuthAssertion {
  /** The whole TAG_UAFV1_AUTH_ASSERTION element. */
  raw: Buffer;
  /** The whole TAG_UAFV1_SIGNED_DATA element (tag and length included): the bytes UAuth.priv signs. */
  signedData: Buffer;
  aaid: string;
  authenticatorVersion: number;
  /** 1: user verified; 2: transaction content shown and confirmed. */
  authenticationMode: number;
  signatureAlgAndEncoding: number;
  authenticatorNonce: Buffer;
  finalChallengeHash: Buffer;
  /** Empty when authenticationMode is 1. */
  transactionContentHash: Buffer;
  keyId: Buffer;
  signCounter: number;
  signedExtensions: TlvExtension[];
  vendorTags: number[];
  signature: Buffer;
  unsignedExtensions: TlvExtension[];
}

/** Parses a TAG_UAFV1_REG_ASSERTION. Structure and fixed lengths only: verify.ts checks the meaning. */
export function parseRegAssertion(bytes: Uint8Array, options: DecodeTlvOptions = {}): RegAssertion {
  const root = decodeTlv(bytes, options);
  expectTag(root, Tag.UAFV1_REG_ASSERTION);
  const outer = collect(root, {
    one: [Tag.UAFV1_KRD],
    oneOf: [
      Tag.ATTESTATION_BASIC_FULL,
      Tag.ATTESTATION_BASIC_SURROGATE,
      Tag.ATTESTATION_ECDAA,
      Tag.ATTESTATION_ATTCA,
    ],
  });
  const krdNode = outer.required(Tag.UAFV1_KRD);
  const krd = collect(krdNode, {
    one: [Tag.AAID, Tag.ASSERTION_INFO, Tag.FINAL_CHALLENGE_HASH, Tag.KEYID, Tag.COUNTERS, Tag.PUB_KEY],
  });
  const info = fixedLength(krd.required(Tag.ASSERTION_INFO), 7);
  const counters = fixedLength(krd.required(Tag.COUNTERS), 8);
  const attestationNode = outer.choice();

  return {
    raw: root.raw,
    krd: krdNode.raw,
    aaid: readAaid(krd.required(Tag.AAID)),
    authenticatorVersion: info.readUInt16LE(0),
    authenticationMode: info.readUInt8(2),
    signatureAlgAndEncoding: info.readUInt16LE(3),
    publicKeyAlgAndEncoding: info.readUInt16LE(5),
    finalChallengeHash: boundedLength(krd.required(Tag.FINAL_CHALLENGE_HASH), 1, 64),
    keyId: boundedLength(krd.required(Tag.KEYID), 1, 2048),
    signCounter: counters.readUInt32LE(0),
    regCounter: counters.readUInt32LE(4),
    publicKey: boundedLength(krd.required(Tag.PUB_KEY), 1, 2048),
    signedExtensions: krd.extensions,
    vendorTags: krd.vendorTags,
    attestation: parseAttestation(attestationNode),
    unsignedExtensions: outer.extensions,
  };
}

/** Parses a TAG_UAFV1_AUTH_ASSERTION. Structure and fixed lengths only: verify.ts checks the meaning. */
export function parseAuthAssertion(bytes: Uint8Array, options: DecodeTlvOptions = {}): AuthAssertion {
  const root = decodeTlv(bytes, options);
  expectTag(root, Tag.UAFV1_AUTH_ASSERTION);
  const outer = collect(root, { one: [Tag.UAFV1_SIGNED_DATA, Tag.SIGNATURE] });
  const signedDataNode = outer.required(Tag.UAFV1_SIGNED_DATA);
  const signed = collect(signedDataNode, {
    one: [
      Tag.AAID,
      Tag.ASSERTION_INFO,
      Tag.AUTHENTICATOR_NONCE,
      Tag.FINAL_CHALLENGE_HASH,
      Tag.TRANSACTION_CONTENT_HASH,
      Tag.KEYID,
      Tag.COUNTERS,
    ],
  });
  const info = fixedLength(signed.required(Tag.ASSERTION_INFO), 5);
  const counters = fixedLength(signed.required(Tag.COUNTERS), 4);

  return {
    raw: root.raw,
    signedData: signedDataNode.raw,
    aaid: readAaid(signed.required(Tag.AAID)),
    authenticatorVersion: info.readUInt16LE(0),
    authenticationMode: info.readUInt8(2),
    signatureAlgAndEncoding: info.readUInt16LE(3),
    authenticatorNonce: boundedLength(signed.required(Tag.AUTHENTICATOR_NONCE), 1, 255),
    finalChallengeHash: boundedLength(signed.required(Tag.FINAL_CHALLENGE_HASH), 1, 64),
    transactionContentHash: boundedLength(signed.required(Tag.TRANSACTION_CONTENT_HASH), 0, 64),
    keyId: boundedLength(signed.required(Tag.KEYID), 1, 2048),
    signCounter: counters.readUInt32LE(0),
    signedExtensions: signed.extensions,
    vendorTags: signed.vendorTags,
    signature: boundedLength(outer.required(Tag.SIGNATURE), 1, 1024),
    unsignedExtensions: outer.extensions,
  };
}

function parseAttestation(node: TlvNode): RegAttestation {
  switch (node.tag) {
    case Tag.ATTESTATION_BASIC_FULL:
    case Tag.ATTESTATION_ATTCA: {
      const fields = collect(node, { one: [Tag.SIGNATURE], many: [Tag.ATTESTATION_CERT] });
      const signature = boundedLength(fields.required(Tag.SIGNATURE), 1, 1024);
      const certificates = fields.all(Tag.ATTESTATION_CERT).map((cert) => boundedLength(cert, 1, 8192));
      if (certificates.length === 0) {
        throw new TlvError("tlv.missing_tag", `${tagName(node.tag)} holds no ATTESTATION_CERT`, node.offset);
      }
      if (certificates.length > MAX_ATTESTATION_CERTS) {
        throw new TlvError("tlv.bad_value", `More than ${MAX_ATTESTATION_CERTS} attestation certificates`);
      }
      return node.tag === Tag.ATTESTATION_BASIC_FULL
        ? { type: "basic_full", signature, certificates }
        : { type: "attca", signature, certificates };
    }
    case Tag.ATTESTATION_BASIC_SURROGATE: {
      const fields = collect(node, { one: [Tag.SIGNATURE] });
      return { type: "basic_surrogate", signature: boundedLength(fields.required(Tag.SIGNATURE), 1, 1024) };
    }
    default: {
      // ECDAA: kept opaque; the verifier refuses it (fido-uaf.md §10.6).
      const fields = collect(node, { one: [Tag.SIGNATURE] });
      return { type: "ecdaa", signature: fields.required(Tag.SIGNATURE).value };
    }
  }
}

export const MAX_ATTESTATION_CERTS = 5;

interface Layout {
  /** Tags that must occur exactly once. */
  one?: readonly number[];
  /** Exactly one of these must occur, once. */
  oneOf?: readonly number[];
  /** Tags that may repeat (kept in order). */
  many?: readonly number[];
}

interface Collected {
  required(tag: number): TlvNode;
  choice(): TlvNode;
  all(tag: number): TlvNode[];
  extensions: TlvExtension[];
  vendorTags: number[];
}

/**
 * Sorts the children of a composite into the layout. Order is not normative, so any order is accepted;
 * duplicates of singleton tags, known tags out of place and unknown critical tags are refused, unknown
 * non-critical tags are skipped.
 */
function collect(parent: TlvNode, layout: Layout): Collected {
  const one = new Set(layout.one ?? []);
  const oneOf = new Set(layout.oneOf ?? []);
  const many = new Set(layout.many ?? []);
  const found = new Map<number, TlvNode[]>();
  const extensions: TlvExtension[] = [];
  const vendorTags: number[] = [];
  let chosen: TlvNode | undefined;

  for (const child of parent.children ?? []) {
    const { tag } = child;
    if (tag === Tag.EXTENSION || tag === Tag.EXTENSION_NON_CRITICAL) {
      extensions.push(parseExtension(child));
    } else if (one.has(tag) || many.has(tag)) {
      const list = found.get(tag) ?? [];
      if (one.has(tag) && list.length > 0) {
        throw new TlvError(
          "tlv.duplicate_tag",
          `${tagName(tag)} occurs twice in ${tagName(parent.tag)}`,
          child.offset,
        );
      }
      list.push(child);
      found.set(tag, list);
    } else if (oneOf.has(tag)) {
      if (chosen) {
        throw new TlvError(
          "tlv.duplicate_tag",
          `${tagName(parent.tag)} holds both ${tagName(chosen.tag)} and ${tagName(tag)}`,
          child.offset,
        );
      }
      chosen = child;
    } else if (KNOWN_TAGS.has(tag)) {
      throw new TlvError(
        "tlv.unexpected_tag",
        `${tagName(tag)} does not belong in ${tagName(parent.tag)}`,
        child.offset,
      );
    } else if (isCritical(tag)) {
      // decodeTlv let it through, so the caller's tolerate() accepted it here.
      vendorTags.push(tag);
    }
  }

  return {
    required(tag) {
      const node = found.get(tag)?.[0];
      if (!node)
        throw new TlvError("tlv.missing_tag", `${tagName(parent.tag)} lacks ${tagName(tag)}`, parent.offset);
      return node;
    },
    choice() {
      if (!chosen) {
        const names = [...oneOf].map(tagName).join(", ");
        throw new TlvError("tlv.missing_tag", `${tagName(parent.tag)} lacks one of ${names}`, parent.offset);
      }
      return chosen;
    },
    all: (tag) => found.get(tag) ?? [],
    extensions,
    vendorTags,
  };
}

function parseExtension(node: TlvNode): TlvExtension {
  const fields = collect(node, { one: [Tag.EXTENSION_ID, Tag.EXTENSION_DATA] });
  if (fields.extensions.length > 0) {
    throw new TlvError("tlv.unexpected_tag", "An extension inside an extension", node.offset);
  }
  const idBytes = boundedLength(fields.required(Tag.EXTENSION_ID), 1, 32);
  const id = idBytes.toString("utf8");
  const data = fields.all(Tag.EXTENSION_DATA)[0]?.value ?? Buffer.alloc(0);
  return { id, data, critical: node.tag === Tag.EXTENSION };
}

function expectTag(node: TlvNode, tag: number): void {
  if (node.tag !== tag) {
    throw new TlvError(
      "tlv.unexpected_tag",
      `Expected ${tagName(tag)}, found ${tagName(node.tag)}`,
      node.offset,
    );
  }
}

function fixedLength(node: TlvNode, length: number): Buffer {
  if (node.value.length !== length) {
    throw new TlvError(
      "tlv.bad_length",
      `${tagName(node.tag)} must be ${length} bytes, not ${node.value.length}`,
      node.offset,
    );
  }
  return node.value;
}

function boundedLength(node: TlvNode, min: number, max: number): Buffer {
  if (node.value.length < min || node.value.length > max) {
    throw new TlvError(
      "tlv.bad_length",
      `${tagName(node.tag)} is ${node.value.length} bytes, outside ${min}..${max}`,
      node.offset,
    );
  }
  return node.value;
}

function readAaid(node: TlvNode): string {
  const text = fixedLength(node, 9).toString("latin1");
  if (!AAID_PATTERN.test(text))
    throw new TlvError("tlv.bad_value", "AAID is not VVVV#MMMM in hex", node.offset);
  return text.toUpperCase();
}
