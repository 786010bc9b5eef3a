/**
 * Just enough ASN.1 DER to wrap and unwrap signatures, read certificate extensions and build test
 * certificates. Definite lengths only (DER); lengths above 4 bytes are refused.
 */

export interface DerElement {
  tag: number;
  /** The contents octets. */
  value: Buffer;
  /** Header and contents. */
  raw: Buffer;
}

export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DerError";
  }
}

/** Reads the element at `offset`; `end` bounds it (default: the end of the input). */
export function readDer(input: Buffer, offset = 0, end = input.length): DerElement {
  if (offset + 2 > end) throw new DerError("DER element truncated");
  const tag = input[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError("Multi-byte DER tags are not supported");
  let length = input[offset + 1] as number;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new DerError("Unsupported DER length encoding");
    if (offset + 2 + count > end) throw new DerError("DER length truncated");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (input[offset + 2 + i] as number);
    if (length < 0x80 || (input[offset + 2] as number) === 0) throw new DerError("Non-minimal DER length");
    header += count;
  }
  if (offset + header + length > end) throw new DerError("DER contents overrun the input");
  const raw = input.subarray(offset, offset + header + length);
  return { tag, value: raw.subarray(header), raw };
}

/** Reads one element that must fill the whole input. */
export function readDerExact(input: Buffer): DerElement {
  const element = readDer(input);
  if (element.raw.length !== input.length) throw new DerError("Bytes after the DER element");
  return element;
}

/** The elements inside a constructed element's contents. */
export function readDerChildren(contents: Buffer): DerElement[] {
  const children: DerElement[] = [];
  for (let offset = 0; offset < contents.length;) {
    const child = readDer(contents, offset);
    children.push(child);
    offset += child.raw.length;
  }
  return children;
}

export function derEncode(tag: number, ...contents: Uint8Array[]): Buffer {
  const value = Buffer.concat(contents);
  let header: Buffer;
  if (value.length < 0x80) {
    header = Buffer.from([tag, value.length]);
  } else {
    const lengthBytes: number[] = [];
    for (let n = value.length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n % 256);
    header = Buffer.from([tag, 0x80 | lengthBytes.length, ...lengthBytes]);
  }
  return Buffer.concat([header, value]);
}

export const DerTag = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

export const derSequence = (...items: Uint8Array[]): Buffer => derEncode(DerTag.SEQUENCE, ...items);
export const derSet = (...items: Uint8Array[]): Buffer => derEncode(DerTag.SET, ...items);
export const derOctetString = (bytes: Uint8Array): Buffer => derEncode(DerTag.OCTET_STRING, bytes);
export const derUtf8 = (text: string): Buffer => derEncode(DerTag.UTF8_STRING, Buffer.from(text, "utf8"));
export const derBoolean = (value: boolean): Buffer =>
  derEncode(DerTag.BOOLEAN, Buffer.from([value ? 0xff : 0]));
/** A BIT STRING whose last `unusedBits` bits are padding. */
export const derBitString = (bytes: Uint8Array, unusedBits = 0): Buffer =>
  derEncode(DerTag.BIT_STRING, Buffer.from([unusedBits]), bytes);
export const derExplicit = (n: number, ...items: Uint8Array[]): Buffer => derEncode(0xa0 | n, ...items);

/** A non-negative INTEGER from big-endian magnitude bytes, minimally encoded. */
export function derUnsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = Buffer.from(magnitude.subarray(start));
  const bytes = (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
  return derEncode(DerTag.INTEGER, bytes.length === 0 ? Buffer.from([0]) : bytes);
}

export function derOid(dotted: string): Buffer {
  const parts = dotted.split(".").map((part) => Number.parseInt(part, 10));
  const [first = 0, second = 0, ...rest] = parts;
  const bytes: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk: number[] = [part & 0x7f];
    for (let n = Math.floor(part / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    bytes.push(...chunk);
  }
  return derEncode(DerTag.OID, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). Whole seconds. */
export function derTime(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? derEncode(DerTag.UTC_TIME, Buffer.from(digits.slice(2), "ascii"))
    : derEncode(DerTag.GENERALIZED_TIME, Buffer.from(digits, "ascii"));
}

/** Unwraps a DER OCTET STRING that fills the whole input (the *_DER RSA signature encodings). */
export function unwrapOctetString(input: Buffer): Buffer {
  const element = readDerExact(input);
  if (element.tag !== DerTag.OCTET_STRING) throw new DerError("Not an OCTET STRING");
  return element.value;
}

/**
 * The extnValue (contents of the OCTET STRING) of a certificate extension, or undefined when the
 * certificate has no such extension.
 */
export function findCertificateExtension(certificateDer: Buffer, oidDotted: string): Buffer | undefined {
  const certificate = readDerExact(certificateDer);
  const [tbs] = readDerChildren(certificate.value);
  if (!tbs || tbs.tag !== DerTag.SEQUENCE) throw new DerError("Certificate without TBSCertificate");
  const wrapper = readDerChildren(tbs.value).find((element) => element.tag === 0xa3);
  if (!wrapper) return undefined;
  const [extensions] = readDerChildren(wrapper.value);
  if (!extensions) return undefined;
  const wanted = derOid(oidDotted);
  for (const extension of readDerChildren(extensions.value)) {
    const fields = readDerChildren(extension.value);
    if (fields[0]?.raw.equals(wanted)) {
      const octets = fields[fields.length - 1];
      if (!octets || octets.tag !== DerTag.OCTET_STRING) throw new DerError("Extension without extnValue");
      return octets.value;
    }
  }
  return undefined;
}
