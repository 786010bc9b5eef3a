import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import { aaidSchema } from "./aaid";
import { decodeBase64Lenient, sameBytes, sha256, toBase64Url } from "./encoding";
import { UafError, UafStatus } from "./errors";

/**
 * The UAF 1.1 protocol messages (fido-uaf-protocol-v1.1 §3; fido-uaf.md §2): schemas, builders for the
 * three requests, the parser for a client's response, the final challenge hash and serverData sealing.
 * A message travels as the JSON text of an array of dictionaries.
 */

// ---------------------------------------------------------------------------------------------------
// Limits (characters of JSON strings)

/** A response array holds one entry per protocol version; more than this is refused. */
export const MAX_RESPONSE_ENTRIES = 4;
export const MAX_ASSERTIONS = 8;
/** base64url of a TLV assertion (the outer element is at most 65,539 bytes; real ones are < 4 KiB). */
export const MAX_ASSERTION_CHARS = 32_768;
export const MAX_FC_PARAMS_CHARS = 16_384;
export const MAX_UAF_MESSAGE_CHARS = 65_536;
/** Transaction text shown by the authenticator (fido-uaf.md §1: ASCII text of at most 200 characters). */
export const MAX_TRANSACTION_TEXT = 200;

// ---------------------------------------------------------------------------------------------------
// Schemas and types

const ushort = z.number().int().min(0).max(0xffff);
const ulong = z.number().int().min(0).max(0xffffffff);
const base64urlText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** KeyID: base64url of 1..2048 bytes (the spec says 32..2048; real clients send 15 and 44). */
export const keyIdSchema = z.string().min(2).max(2731);
/** ServerChallenge: base64url of 8..64 bytes. */
export const challengeSchema = z.string().min(11).max(86);

export const versionSchema = z.object({ major: ushort, minor: ushort });
export type Version = z.infer<typeof versionSchema>;

export const operationSchema = z.enum(["Reg", "Auth", "Dereg"]);
export type UafOperation = z.infer<typeof operationSchema>;

export const extensionSchema = z.object({
  id: z.string().min(1).max(32),
  data: z.string().max(8192),
  fail_if_unknown: z.boolean(),
});
export type UafExtension = z.infer<typeof extensionSchema>;

export const operationHeaderSchema = z.object({
  upv: versionSchema,
  op: operationSchema,
  appID: z.string().max(512).optional(),
  serverData: z.string().min(1).max(1536).optional(),
  exts: z.array(extensionSchema).max(16).optional(),
});
export type OperationHeader = z.infer<typeof operationHeaderSchema>;

export const matchCriteriaSchema = z
  .object({
    aaid: z.array(aaidSchema).min(1).max(64).optional(),
    vendorID: z
      .array(z.string().regex(/^[0-9A-Fa-f]{4}$/))
      .min(1)
      .max(64)
      .optional(),
    keyIDs: z.array(keyIdSchema).min(1).max(64).optional(),
    userVerification: ulong.optional(),
    keyProtection: ushort.optional(),
    matcherProtection: ushort.optional(),
    attachmentHint: ulong.optional(),
    tcDisplay: ushort.optional(),
    authenticationAlgorithms: z.array(ushort).min(1).max(32).optional(),
    assertionSchemes: z.array(z.string().min(1).max(32)).min(1).max(8).optional(),
    attestationTypes: z.array(ushort).min(1).max(8).optional(),
    authenticatorVersion: ushort.optional(),
    exts: z.array(extensionSchema).max(16).optional(),
  })
  .superRefine((criteria, context) => {
    // fido-uaf-protocol-v1.1 §3.4.2.1 (fido-uaf.md §2.3).
    if (criteria.aaid) {
      const allowed = new Set(["aaid", "keyIDs", "attachmentHint", "authenticatorVersion", "exts"]);
      const extra = Object.keys(criteria).filter((key) => !allowed.has(key));
      if (extra.length > 0)
        context.addIssue({ code: "custom", message: `aaid cannot be combined with ${extra}` });
    } else if (!criteria.authenticationAlgorithms || !criteria.assertionSchemes) {
      context.addIssue({
        code: "custom",
        message: "without aaid, authenticationAlgorithms and assertionSchemes are required",
      });
    }
  });
export type MatchCriteria = z.infer<typeof matchCriteriaSchema>;

export const policySchema = z.object({
  accepted: z.array(z.array(matchCriteriaSchema).min(1).max(8)).min(1).max(64),
  disallowed: z.array(matchCriteriaSchema).max(256).optional(),
});
export type Policy = z.infer<typeof policySchema>;

export const displayPngCharacteristicsSchema = z.object({
  width: ulong,
  height: ulong,
  bitDepth: z.number().int().min(0).max(255),
  colorType: z.number().int().min(0).max(255),
  compression: z.number().int().min(0).max(255),
  filter: z.number().int().min(0).max(255),
  interlace: z.number().int().min(0).max(255),
  plte: z
    .array(z.object({ r: ushort, g: ushort, b: ushort }))
    .max(256)
    .optional(),
});

export const transactionSchema = z
  .object({
    contentType: z.enum(["text/plain", "image/png"]),
    content: base64urlText(MAX_ASSERTION_CHARS),
    tcDisplayPNGCharacteristics: displayPngCharacteristicsSchema.optional(),
  })
  .refine(
    (transaction) => transaction.contentType !== "image/png" || transaction.tcDisplayPNGCharacteristics,
    {
      message: "image/png transactions need tcDisplayPNGCharacteristics",
    },
  );
export type Transaction = z.infer<typeof transactionSchema>;

const headerFor = <Op extends UafOperation>(op: Op) => operationHeaderSchema.extend({ op: z.literal(op) });

export const registrationRequestSchema = z.object({
  header: headerFor("Reg"),
  challenge: challengeSchema,
  username: z.string().min(1).max(128),
  policy: policySchema,
});
export type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

export const authenticationRequestSchema = z.object({
  header: headerFor("Auth"),
  challenge: challengeSchema,
  transaction: z.array(transactionSchema).min(1).max(8).optional(),
  policy: policySchema,
});
export type AuthenticationRequest = z.infer<typeof authenticationRequestSchema>;

export const deregisterAuthenticatorSchema = z.object({
  aaid: z.union([aaidSchema, z.literal("")]),
  keyID: z.union([keyIdSchema, z.literal("")]),
});
export type DeregisterAuthenticator = z.infer<typeof deregisterAuthenticatorSchema>;

export const deregistrationRequestSchema = z.object({
  header: headerFor("Dereg"),
  authenticators: z
    .array(deregisterAuthenticatorSchema)
    .min(1)
    .max(256)
    .superRefine((entries, context) => {
      // fido-uaf-protocol-v1.1 §3.6.3: "" for both means every key of the AppID, and must stand alone.
      if (entries.length > 1 && entries.some((entry) => entry.aaid === "" && entry.keyID === "")) {
        context.addIssue({ code: "custom", message: "a deregister-all entry must be the only one" });
      }
      if (entries.some((entry) => entry.aaid === "" && entry.keyID !== "")) {
        context.addIssue({ code: "custom", message: "a keyID needs its aaid" });
      }
    }),
});
export type DeregistrationRequest = z.infer<typeof deregistrationRequestSchema>;

export type UafRequest = RegistrationRequest | AuthenticationRequest | DeregistrationRequest;

export const channelBindingSchema = z.object({
  serverEndPoint: z.string().max(1024).optional(),
  tlsServerCertificate: z.string().max(MAX_FC_PARAMS_CHARS).optional(),
  tlsUnique: z.string().max(1024).optional(),
  cid_pubkey: z.string().max(1024).optional(),
});
export type ChannelBinding = z.infer<typeof channelBindingSchema>;

export const finalChallengeParamsSchema = z.object({
  appID: z.string().min(1).max(512),
  challenge: z.string().min(1).max(128),
  facetID: z.string().min(1).max(512),
  channelBinding: channelBindingSchema,
});
export type FinalChallengeParams = z.infer<typeof finalChallengeParamsSchema>;

export const responseAssertionSchema = z.object({
  assertionScheme: z.string().min(1).max(32),
  assertion: z.string().min(1).max(MAX_ASSERTION_CHARS),
  tcDisplayPNGCharacteristics: z.array(displayPngCharacteristicsSchema).max(8).optional(),
  exts: z.array(extensionSchema).max(16).optional(),
});
export type ResponseAssertion = z.infer<typeof responseAssertionSchema>;

/** RegistrationResponse and AuthenticationResponse share this shape. */
export const uafResponseMessageSchema = z.object({
  header: operationHeaderSchema,
  fcParams: z.string().min(1).max(MAX_FC_PARAMS_CHARS),
  assertions: z.array(responseAssertionSchema).min(1).max(MAX_ASSERTIONS),
});
export type UafResponseMessage = z.infer<typeof uafResponseMessageSchema>;

// ---------------------------------------------------------------------------------------------------
// Building requests

/** The version Sesame emits. */
export const UAF_VERSION: Version = { major: 1, minor: 1 };
/** Versions accepted in responses, preferred first. */
export const SUPPORTED_VERSIONS: readonly Version[] = [
  { major: 1, minor: 1 },
  { major: 1, minor: 0 },
];

/** A fresh ServerChallenge: 32 random bytes, base64url. */
export const newServerChallenge = (): string => toBase64Url(randomBytes(32));

interface RequestBase {
  /** The AppID (Trusted Facets URL), copied into header.appID. "" lets the client use its own FacetID. */
  appID: string;
  serverData?: string;
  exts?: UafExtension[];
}

export function buildRegistrationRequest(
  input: RequestBase & { challenge: string; username: string; policy: Policy },
): RegistrationRequest {
  return registrationRequestSchema.parse({
    header: header("Reg", input),
    challenge: input.challenge,
    username: input.username,
    policy: input.policy,
  });
}

export function buildAuthenticationRequest(
  input: RequestBase & { challenge: string; policy: Policy; transaction?: Transaction[] },
): AuthenticationRequest {
  return authenticationRequestSchema.parse({
    header: header("Auth", input),
    challenge: input.challenge,
    ...(input.transaction ? { transaction: input.transaction } : {}),
    policy: input.policy,
  });
}

export function buildDeregistrationRequest(
  input: RequestBase & { authenticators: DeregisterAuthenticator[] },
): DeregistrationRequest {
  return deregistrationRequestSchema.parse({
    header: header("Dereg", input),
    authenticators: input.authenticators,
  });
}

/** A text/plain transaction: the UTF-8 text, base64url. */
export function textTransaction(text: string): Transaction {
  if (text.length === 0 || text.length > MAX_TRANSACTION_TEXT) {
    throw new RangeError(`Transaction text must be 1 to ${MAX_TRANSACTION_TEXT} characters`);
  }
  return { contentType: "text/plain", content: toBase64Url(Buffer.from(text, "utf8")) };
}

/** The wire form: the JSON text of a one-element array. */
export const serializeUafMessage = (message: UafRequest | UafResponseMessage): string =>
  JSON.stringify([message]);

function header(op: UafOperation, input: RequestBase): OperationHeader {
  return {
    upv: UAF_VERSION,
    op,
    appID: input.appID,
    ...(input.serverData !== undefined ? { serverData: input.serverData } : {}),
    ...(input.exts ? { exts: input.exts } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// Parsing

export const isSupportedVersion = (upv: Version): boolean =>
  SUPPORTED_VERSIONS.some((version) => version.major === upv.major && version.minor === upv.minor);

/**
 * The JSON array inside a UAF message string. Also accepts the `{"uafProtocolMessage": "…"}` wrapper
 * that UAF clients hand back (UAFMessage). Malformed input is UafError 1498.
 */
export function parseUafMessageArray(text: string): unknown[] {
  if (typeof text !== "string" || text.length > MAX_UAF_MESSAGE_CHARS) {
    throw malformed("malformed_message", "The UAF message is not a string of at most 64 KiB");
  }
  let value: unknown = parseJson(text, "malformed_message", "The UAF message is not JSON");
  if (value && typeof value === "object" && !Array.isArray(value) && "uafProtocolMessage" in value) {
    const inner = (value as { uafProtocolMessage: unknown }).uafProtocolMessage;
    if (typeof inner !== "string") throw malformed("malformed_message", "uafProtocolMessage is not a string");
    value = parseJson(inner, "malformed_message", "uafProtocolMessage is not JSON");
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw malformed("malformed_message", "A UAF message is a non-empty JSON array");
  }
  return value;
}

/** A request message (for the software authenticator): the entry of the preferred supported version. */
export function parseUafRequest(text: string): UafRequest {
  const entries = parseUafMessageArray(text);
  const parsed = entries.map((entry) => {
    const op = (entry as { header?: { op?: unknown } } | null)?.header?.op;
    const schema =
      op === "Reg"
        ? registrationRequestSchema
        : op === "Auth"
          ? authenticationRequestSchema
          : deregistrationRequestSchema;
    const result = schema.safeParse(entry);
    if (!result.success)
      throw malformed("malformed_message", `Invalid UAF request: ${describe(result.error)}`);
    return result.data;
  });
  return pickVersion(parsed);
}

export interface ParsedUafResponse extends UafResponseMessage {
  /** fcParams exactly as received: the final challenge hash covers these characters. */
  fcParams: string;
  finalChallengeParams: FinalChallengeParams;
}

/**
 * Parses a client's `uafResponse`: JSON array (or UAFMessage wrapper), each entry validated, the entry
 * of the preferred supported version (1.1, then 1.0) chosen, its fcParams decoded leniently (padding,
 * standard alphabet and line breaks are fine) and validated. Everything malformed is UafError 1498.
 */
export function parseUafResponse(text: string): ParsedUafResponse {
  const entries = parseUafResponseMessages(text);
  const message = pickVersion(entries);
  const json = decodeBase64Lenient(message.fcParams);
  if (!json) throw malformed("malformed_fc_params", "fcParams is not base64url");
  const value = parseJson(json.toString("utf8"), "malformed_fc_params", "fcParams does not decode to JSON");
  const result = finalChallengeParamsSchema.safeParse(value);
  if (!result.success) throw malformed("malformed_fc_params", `Invalid fcParams: ${describe(result.error)}`);
  return { ...message, finalChallengeParams: result.data };
}

/** Every entry of a response array, validated (no version selection). */
export function parseUafResponseMessages(text: string): UafResponseMessage[] {
  const entries = parseUafMessageArray(text);
  if (entries.length > MAX_RESPONSE_ENTRIES) {
    throw malformed("malformed_message", `A UAF response holds at most ${MAX_RESPONSE_ENTRIES} entries`);
  }
  return entries.map((entry) => {
    const result = uafResponseMessageSchema.safeParse(entry);
    if (!result.success)
      throw malformed("malformed_message", `Invalid UAF response: ${describe(result.error)}`);
    return result.data;
  });
}

function pickVersion<T extends { header: OperationHeader }>(entries: T[]): T {
  for (const version of SUPPORTED_VERSIONS) {
    const entry = entries.find(
      ({ header: { upv } }) => upv.major === version.major && upv.minor === version.minor,
    );
    if (entry) return entry;
  }
  throw new UafError(
    UafStatus.UNACCEPTABLE_CONTENT,
    "unsupported_version",
    "No entry of a supported protocol version (1.1 or 1.0)",
  );
}

/** FinalChallengeHash: SHA-256 of the fcParams string exactly as sent (never re-encoded). */
export const finalChallengeHash = (fcParams: string): Buffer => sha256(Buffer.from(fcParams, "utf8"));

/** FinalChallengeParams → the fcParams string a client sends: base64url of the UTF-8 JSON. */
export const encodeFinalChallengeParams = (params: FinalChallengeParams): string =>
  toBase64Url(Buffer.from(JSON.stringify(params), "utf8"));

// ---------------------------------------------------------------------------------------------------
// serverData

export interface ServerDataClaims {
  requestId: string;
  expiresAt: Date;
  challenge: string;
}

const SERVER_DATA_VERSION = "v1";
const SERVER_DATA_CONTEXT = "sesame/uaf/serverData/v1\n";
const MIN_KEY_BYTES = 32;

const serverDataPayloadSchema = z.object({
  r: z.string().min(1).max(128),
  e: z.number().int().min(0),
  c: z.string().min(1).max(128),
});

/**
 * serverData = `v1.<base64url JSON {r, e, c}>.<base64url HMAC-SHA256>`: the request id, the expiry
 * (Unix seconds) and the challenge, bound under `key` (at least 32 bytes, e.g. derived from the master
 * secret by the caller). Opaque to clients; well under the 1,536-character limit.
 */
export function sealServerData(claims: ServerDataClaims, key: Uint8Array): string {
  assertKey(key);
  const payload = serverDataPayloadSchema.parse({
    r: claims.requestId,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
    c: claims.challenge,
  });
  const body = toBase64Url(Buffer.from(JSON.stringify(payload), "utf8"));
  return `${SERVER_DATA_VERSION}.${body}.${toBase64Url(mac(key, body))}`;
}

/**
 * Checks the MAC, then the expiry against `now`. A forged, altered or foreign value is UafError 1491
 * `server_data_invalid`; an expired one 1491 `server_data_expired`.
 */
export function openServerData(serverData: string, key: Uint8Array, now: Date): ServerDataClaims {
  assertKey(key);
  const parts = serverData.split(".");
  const [version, body, tag] = parts;
  const given = tag ? decodeBase64Lenient(tag) : undefined;
  if (
    parts.length !== 3 ||
    version !== SERVER_DATA_VERSION ||
    !body ||
    !given ||
    !sameBytes(given, mac(key, body))
  ) {
    throw invalidServerData("serverData is not one Sesame issued");
  }
  const decoded = decodeBase64Lenient(body);
  let payload: z.infer<typeof serverDataPayloadSchema>;
  try {
    payload = serverDataPayloadSchema.parse(JSON.parse(decoded?.toString("utf8") ?? ""));
  } catch (error) {
    throw invalidServerData("serverData does not decode", error);
  }
  const expiresAt = new Date(payload.e * 1000);
  if (now.getTime() >= expiresAt.getTime()) {
    throw new UafError(UafStatus.REQUEST_INVALID, "server_data_expired", "The request has expired");
  }
  return { requestId: payload.r, expiresAt, challenge: payload.c };
}

function mac(key: Uint8Array, body: string): Buffer {
  return createHmac("sha256", key).update(SERVER_DATA_CONTEXT).update(body).digest();
}

function assertKey(key: Uint8Array): void {
  if (key.length < MIN_KEY_BYTES)
    throw new RangeError(`The serverData key needs at least ${MIN_KEY_BYTES} bytes`);
}

function invalidServerData(message: string, cause?: unknown): UafError {
  return new UafError(UafStatus.REQUEST_INVALID, "server_data_invalid", message, { cause });
}

// ---------------------------------------------------------------------------------------------------

function parseJson(
  text: string,
  reason: "malformed_message" | "malformed_fc_params",
  message: string,
): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw malformed(reason, message, error);
  }
}

function malformed(reason: "malformed_message" | "malformed_fc_params", message: string, cause?: unknown) {
  return new UafError(UafStatus.UNACCEPTABLE_CONTENT, reason, message, { cause });
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}
