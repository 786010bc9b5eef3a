import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { z } from "zod";
import { aaidSchema } from "./aaid";
import { createTestAttestationCa, issueAttestationCertificate } from "./certificates";
import { AlgKey, AlgSign, exportPublicKey, signData } from "./crypto";
import { decodeBase64Lenient, sha256, toBase64Url } from "./encoding";
import {
  encodeFinalChallengeParams,
  finalChallengeHash,
  parseUafRequest,
  serializeUafMessage,
  type AuthenticationRequest,
  type ChannelBinding,
  type DeregistrationRequest,
  type OperationHeader,
  type Policy,
  type RegistrationRequest,
  type Transaction,
  type UafOperation,
  type UafRequest,
} from "./messages";
import { matchesCriteria, policyAccepts, type PolicySubject } from "./policy";
import { Tag, encodeTlv, uint16le, uint32le } from "./tlv";

/**
 * A software UAF authenticator: FIDO client, ASM and authenticator in one (fido-uaf.md §6). It answers
 * the request strings the server issues with the response strings a real client would send. Keys are
 * P-256, ALG_SIGN_SECP256R1_ECDSA_SHA256_RAW with ALG_KEY_ECC_X962_RAW; attestation is basic surrogate,
 * or basic full under a generated test CA. All state lives in a JSON-serialisable object, so a CLI can
 * keep it in a file. It does not fetch Trusted Facets lists: it trusts the caller with the AppID.
 */

/** A test AAID (the FIDO conformance tools use the FFFF vendor for tests). */
export const DEFAULT_SOFTWARE_AAID = "FFFF#5E5A";
export const SOFTWARE_AUTHENTICATOR_VERSION = 0x0100;
const SIGN_ALG = AlgSign.SECP256R1_ECDSA_SHA256_RAW;
const KEY_ALG = AlgKey.ECC_X962_RAW;
const STATE_FORMAT = "sesame-uaf-software-authenticator/1";

const keySchema = z.object({
  appID: z.string().min(1),
  keyId: z.string().min(1),
  username: z.string(),
  /** PKCS#8 DER, base64url. */
  privateKey: z.string().min(1),
  signCounter: z.number().int().min(0),
  regCounter: z.number().int().min(0),
  createdAt: z.string(),
});
export type SoftwareAuthenticatorKey = z.infer<typeof keySchema>;

export const softwareAuthenticatorStateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  aaid: aaidSchema,
  facetId: z.string().min(1),
  authenticatorVersion: z.number().int().min(0).max(0xffff),
  regCounter: z.number().int().min(0),
  attestation: z.discriminatedUnion("type", [
    z.object({ type: z.literal("basic_surrogate") }),
    z.object({
      type: z.literal("basic_full"),
      /** PKCS#8 DER, base64url. */
      privateKey: z.string().min(1),
      /** DER, base64url, attestation certificate first (root excluded). */
      certificates: z.array(z.string().min(1)).min(1),
      /** The root to trust on the server. */
      rootPem: z.string().min(1),
    }),
  ]),
  keys: z.array(keySchema),
});
export type SoftwareAuthenticatorState = z.infer<typeof softwareAuthenticatorStateSchema>;

export interface CreateSoftwareAuthenticatorOptions {
  /** The FacetID this "app" claims in fcParams (e.g. `https://app.example` or `android:apk-key-hash:…`). */
  facetId: string;
  aaid?: string;
  attestation?: "basic_surrogate" | "basic_full";
  /** Start of the test certificates' validity (basic full); they are valid for ten years. */
  now?: Date;
}

export function createSoftwareAuthenticatorState(
  options: CreateSoftwareAuthenticatorOptions,
): SoftwareAuthenticatorState {
  const aaid = (options.aaid ?? DEFAULT_SOFTWARE_AAID).toUpperCase();
  const base = {
    format: STATE_FORMAT,
    aaid,
    facetId: options.facetId,
    authenticatorVersion: SOFTWARE_AUTHENTICATOR_VERSION,
    regCounter: 0,
    keys: [],
  } as const;
  if (options.attestation !== "basic_full") {
    return softwareAuthenticatorStateSchema.parse({ ...base, attestation: { type: "basic_surrogate" } });
  }
  const now = options.now ?? new Date();
  const notBefore = new Date(now.getTime() - 24 * 3600 * 1000);
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const ca = createTestAttestationCa({ notBefore, notAfter });
  const leaf = issueAttestationCertificate(ca, { aaid, notBefore, notAfter });
  return softwareAuthenticatorStateSchema.parse({
    ...base,
    attestation: {
      type: "basic_full",
      privateKey: exportPrivateKey(leaf.privateKey),
      certificates: [toBase64Url(leaf.der)],
      rootPem: ca.root.pem,
    },
  });
}

/** Knobs for negative tests: each makes the response wrong in exactly one way. */
export interface ResponseOverrides {
  /** Claim this FacetID in fcParams. */
  facetId?: string;
  /** Put this appID into fcParams. */
  appID?: string;
  /** Put this challenge into fcParams. */
  challenge?: string;
  channelBinding?: ChannelBinding;
  /** Fields replaced in the echoed header (e.g. another serverData). */
  header?: Partial<OperationHeader>;
  /** Sign this final challenge hash instead of SHA-256(fcParams). */
  finalChallengeHash?: Uint8Array;
  /** Flip a bit of the (attestation or assertion) signature after signing. */
  tamperSignature?: boolean;
  /** Claim another AAID inside the assertion. */
  aaid?: string;
  /** Answer even when the request's policy does not accept (or disallows) this authenticator. */
  ignorePolicy?: boolean;
  /** Auth: sign with this counter value; it is not stored. */
  signCounter?: number;
  /** Auth: ignore the transaction (mode 1, empty content hash). */
  skipTransaction?: boolean;
  /** Auth: confirm this text instead of the transaction's. */
  transactionText?: string;
  /** Auth: use this many nonce bytes (default 32). */
  nonceLength?: number;
}

export interface AuthenticateOptions extends ResponseOverrides {
  /** Choose among several keys of the AppID by username (first-factor authentication). */
  username?: string;
}

export type SoftwareAuthenticatorErrorCode =
  | "malformed_request"
  | "wrong_operation"
  | "not_acceptable"
  | "already_registered"
  | "no_registered_key"
  | "unsupported_transaction";

export class SoftwareAuthenticatorError extends Error {
  readonly code: SoftwareAuthenticatorErrorCode;

  constructor(code: SoftwareAuthenticatorErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "SoftwareAuthenticatorError";
    this.code = code;
  }
}

/** What a request asks, for showing it to the person before answering. */
export interface RequestSummary {
  op: UafOperation;
  appID: string;
  username?: string;
  /** Decoded text/plain transaction content. */
  transactionText?: string;
}

export class SoftwareUafAuthenticator {
  #state: SoftwareAuthenticatorState;

  constructor(state: SoftwareAuthenticatorState) {
    this.#state = softwareAuthenticatorStateSchema.parse(structuredClone(state));
  }

  static create(options: CreateSoftwareAuthenticatorOptions): SoftwareUafAuthenticator {
    return new SoftwareUafAuthenticator(createSoftwareAuthenticatorState(options));
  }

  /** A copy of the state to persist (it holds private keys: store it like a secret). */
  get state(): SoftwareAuthenticatorState {
    return structuredClone(this.#state);
  }

  get aaid(): string {
    return this.#state.aaid;
  }

  /** The attestation root the server must trust (basic full only). */
  get attestationRootPem(): string | undefined {
    return this.#state.attestation.type === "basic_full" ? this.#state.attestation.rootPem : undefined;
  }

  describe(requestText: string): RequestSummary {
    const request = this.#parse(requestText);
    const summary: RequestSummary = { op: request.header.op, appID: this.#appId(request) };
    if (request.header.op === "Reg") summary.username = (request as RegistrationRequest).username;
    const transaction =
      request.header.op === "Auth" ? (request as AuthenticationRequest).transaction : undefined;
    if (transaction) summary.transactionText = transactionContent(transaction).toString("utf8");
    return summary;
  }

  /** Answers a RegistrationRequest with the `uafResponse` string. */
  register(requestText: string, overrides: ResponseOverrides = {}): string {
    const request = this.#expect(requestText, "Reg") as RegistrationRequest;
    const appID = this.#appId(request);
    const aaid = (overrides.aaid ?? this.#state.aaid).toUpperCase();
    if (!overrides.ignorePolicy) this.#checkRegistrationPolicy(request.policy, appID);

    const { fcParams, hash } = this.#finalChallenge(request, appID, overrides);
    const keyPair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const keyId = randomBytes(32);
    const regCounter = this.#state.regCounter + 1;
    const krd = encodeTlv(
      Tag.UAFV1_KRD,
      encodeTlv(Tag.AAID, Buffer.from(aaid, "latin1")),
      encodeTlv(
        Tag.ASSERTION_INFO,
        uint16le(this.#state.authenticatorVersion),
        Buffer.from([1]),
        uint16le(SIGN_ALG),
        uint16le(KEY_ALG),
      ),
      encodeTlv(Tag.FINAL_CHALLENGE_HASH, overrides.finalChallengeHash ?? hash),
      encodeTlv(Tag.KEYID, keyId),
      encodeTlv(Tag.COUNTERS, uint32le(0), uint32le(regCounter)),
      encodeTlv(Tag.PUB_KEY, exportPublicKey(keyPair.publicKey, KEY_ALG)),
    );
    const attestation = this.#attest(krd, keyPair.privateKey, overrides);

    this.#state.regCounter = regCounter;
    this.#state.keys.push({
      appID,
      keyId: toBase64Url(keyId),
      username: request.username,
      privateKey: exportPrivateKey(keyPair.privateKey),
      signCounter: 0,
      regCounter,
      createdAt: new Date().toISOString(),
    });
    return responseText(
      request.header,
      overrides,
      fcParams,
      encodeTlv(Tag.UAFV1_REG_ASSERTION, krd, attestation),
    );
  }

  /** Answers an AuthenticationRequest (with transaction confirmation when it carries a transaction). */
  authenticate(requestText: string, options: AuthenticateOptions = {}): string {
    const request = this.#expect(requestText, "Auth") as AuthenticationRequest;
    const appID = this.#appId(request);
    const key = this.#chooseKey(request, appID, options);
    const { fcParams, hash } = this.#finalChallenge(request, appID, options);

    let mode = 1;
    let contentHash: Buffer = Buffer.alloc(0);
    if (request.transaction && !options.skipTransaction) {
      const content =
        options.transactionText !== undefined
          ? Buffer.from(options.transactionText, "utf8")
          : transactionContent(request.transaction);
      mode = 2;
      contentHash = sha256(content);
    }
    const signCounter = options.signCounter ?? key.signCounter + 1;
    const signedData = encodeTlv(
      Tag.UAFV1_SIGNED_DATA,
      encodeTlv(Tag.AAID, Buffer.from((options.aaid ?? this.#state.aaid).toUpperCase(), "latin1")),
      encodeTlv(
        Tag.ASSERTION_INFO,
        uint16le(this.#state.authenticatorVersion),
        Buffer.from([mode]),
        uint16le(SIGN_ALG),
      ),
      encodeTlv(Tag.AUTHENTICATOR_NONCE, randomBytes(options.nonceLength ?? 32)),
      encodeTlv(Tag.FINAL_CHALLENGE_HASH, options.finalChallengeHash ?? hash),
      encodeTlv(Tag.TRANSACTION_CONTENT_HASH, contentHash),
      encodeTlv(Tag.KEYID, Buffer.from(key.keyId, "base64url")),
      encodeTlv(Tag.COUNTERS, uint32le(signCounter)),
    );
    const signature = signData(SIGN_ALG, signedData, importPrivateKey(key.privateKey));
    if (options.tamperSignature) flipLastBit(signature);

    if (options.signCounter === undefined) key.signCounter = signCounter;
    return responseText(
      request.header,
      options,
      fcParams,
      encodeTlv(Tag.UAFV1_AUTH_ASSERTION, signedData, encodeTlv(Tag.SIGNATURE, signature)),
    );
  }

  /** Handles a DeregistrationRequest (there is no response): returns how many keys were deleted. */
  deregister(requestText: string): { removed: number } {
    const request = this.#expect(requestText, "Dereg") as DeregistrationRequest;
    const appID = this.#appId(request);
    const before = this.#state.keys.length;
    for (const entry of request.authenticators) {
      if (entry.aaid !== "" && entry.aaid.toUpperCase() !== this.#state.aaid) continue;
      const wanted = entry.keyID === "" ? undefined : decodeBase64Lenient(entry.keyID);
      this.#state.keys = this.#state.keys.filter(
        (key) =>
          key.appID !== appID ||
          (wanted !== undefined && !Buffer.from(key.keyId, "base64url").equals(wanted)),
      );
    }
    return { removed: before - this.#state.keys.length };
  }

  /** Dispatches on header.op. */
  respond(
    requestText: string,
    options: AuthenticateOptions = {},
  ): { op: UafOperation; uafResponse?: string; removed?: number } {
    const op = this.#parse(requestText).header.op;
    if (op === "Reg") return { op, uafResponse: this.register(requestText, options) };
    if (op === "Auth") return { op, uafResponse: this.authenticate(requestText, options) };
    return { op, ...this.deregister(requestText) };
  }

  #parse(requestText: string): UafRequest {
    try {
      return parseUafRequest(requestText);
    } catch (error) {
      throw new SoftwareAuthenticatorError("malformed_request", "Not a UAF request message", {
        cause: error,
      });
    }
  }

  #expect(requestText: string, op: UafOperation): UafRequest {
    const request = this.#parse(requestText);
    if (request.header.op !== op) {
      throw new SoftwareAuthenticatorError(
        "wrong_operation",
        `Expected a ${op} request, got ${request.header.op}`,
      );
    }
    return request;
  }

  /** An empty AppID means "my own FacetID" (fido-appid-and-facets §3). */
  #appId(request: UafRequest): string {
    return request.header.appID || this.#state.facetId;
  }

  #subject(keyId?: Uint8Array): PolicySubject {
    return {
      aaid: this.#state.aaid,
      ...(keyId ? { keyId } : {}),
      authenticationAlgorithm: SIGN_ALG,
      assertionScheme: "UAFV1TLV",
      attestationType:
        this.#state.attestation.type === "basic_full"
          ? Tag.ATTESTATION_BASIC_FULL
          : Tag.ATTESTATION_BASIC_SURROGATE,
      authenticatorVersion: this.#state.authenticatorVersion,
    };
  }

  #checkRegistrationPolicy(policy: Policy, appID: string): void {
    if (!policyAccepts(policy, this.#subject())) {
      throw new SoftwareAuthenticatorError(
        "not_acceptable",
        "The request's policy does not accept this authenticator",
      );
    }
    const existing = this.#state.keys.filter((key) => key.appID === appID);
    const candidates = [undefined, ...existing.map((key) => Buffer.from(key.keyId, "base64url"))];
    const disallowed = (policy.disallowed ?? []).some((criteria) =>
      candidates.some((keyId) => matchesCriteria(criteria, this.#subject(keyId))),
    );
    if (disallowed) {
      throw new SoftwareAuthenticatorError(
        "already_registered",
        "The policy disallows this authenticator (registered?)",
      );
    }
  }

  #chooseKey(
    request: AuthenticationRequest,
    appID: string,
    options: AuthenticateOptions,
  ): SoftwareAuthenticatorKey {
    const candidates = this.#state.keys
      .filter((key) => key.appID === appID)
      .filter((key) => options.username === undefined || key.username === options.username)
      .filter(
        (key) =>
          options.ignorePolicy ||
          policyAccepts(request.policy, this.#subject(Buffer.from(key.keyId, "base64url"))),
      );
    const key = candidates[candidates.length - 1];
    if (!key)
      throw new SoftwareAuthenticatorError("no_registered_key", `No key for ${appID} fits the request`);
    return key;
  }

  #finalChallenge(
    request: RegistrationRequest | AuthenticationRequest,
    appID: string,
    overrides: ResponseOverrides,
  ) {
    const fcParams = encodeFinalChallengeParams({
      appID: overrides.appID ?? appID,
      challenge: overrides.challenge ?? request.challenge,
      facetID: overrides.facetId ?? this.#state.facetId,
      channelBinding: overrides.channelBinding ?? {},
    });
    return { fcParams, hash: finalChallengeHash(fcParams) };
  }

  #attest(krd: Buffer, uauthKey: KeyObject, overrides: ResponseOverrides): Buffer {
    const { attestation } = this.#state;
    const signer = attestation.type === "basic_full" ? importPrivateKey(attestation.privateKey) : uauthKey;
    const signature = signData(SIGN_ALG, krd, signer);
    if (overrides.tamperSignature) flipLastBit(signature);
    if (attestation.type === "basic_surrogate") {
      return encodeTlv(Tag.ATTESTATION_BASIC_SURROGATE, encodeTlv(Tag.SIGNATURE, signature));
    }
    return encodeTlv(
      Tag.ATTESTATION_BASIC_FULL,
      encodeTlv(Tag.SIGNATURE, signature),
      ...attestation.certificates.map((der) =>
        encodeTlv(Tag.ATTESTATION_CERT, Buffer.from(der, "base64url")),
      ),
    );
  }
}

function responseText(
  header: OperationHeader,
  overrides: ResponseOverrides,
  fcParams: string,
  assertion: Buffer,
): string {
  return serializeUafMessage({
    header: { ...header, ...overrides.header },
    fcParams,
    assertions: [{ assertionScheme: "UAFV1TLV", assertion: toBase64Url(assertion) }],
  });
}

/** The decoded content of the first text/plain variant: what is shown, and what the content hash covers. */
function transactionContent(transaction: readonly Transaction[]): Buffer {
  const text = transaction.find((variant) => variant.contentType === "text/plain");
  const content = text ? decodeBase64Lenient(text.content) : undefined;
  if (!content) {
    throw new SoftwareAuthenticatorError(
      "unsupported_transaction",
      "Only text/plain transactions can be shown",
    );
  }
  return content;
}

function flipLastBit(signature: Buffer): void {
  const last = signature.length - 1;
  signature[last] = (signature[last] ?? 0) ^ 0x01;
}

function exportPrivateKey(key: KeyObject): string {
  return toBase64Url(key.export({ format: "der", type: "pkcs8" }));
}

function importPrivateKey(text: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(text, "base64url"), format: "der", type: "pkcs8" });
}

/** The public key of a stored key, e.g. for a CLI listing. */
export function publicKeyOf(key: SoftwareAuthenticatorKey): KeyObject {
  return createPublicKey(importPrivateKey(key.privateKey));
}
