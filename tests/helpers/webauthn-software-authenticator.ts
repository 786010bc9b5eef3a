/**
 * A software WebAuthn authenticator (P-256 / ES256) for integration tests and benchmarks.
 *
 * It plays both the browser (builds clientDataJSON) and the authenticator (builds authenticator
 * data, signs), and returns the same JSON a browser's `credential.toJSON()` would. Every field that
 * a relying party checks can be overridden to produce precisely malformed responses for negative
 * tests. Built on `node:crypto` and the CBOR/COSE helpers of `@simplewebauthn/server/helpers`.
 */
import { createHash, generateKeyPair, randomBytes, randomInt, sign, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { cose, isoCBOR } from "@simplewebauthn/server/helpers";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

const generateKeyPairAsync = promisify(generateKeyPair);

/** A value `isoCBOR.encode` accepts (tiny-cbor's `CBORType`). */
export type CborValue = Parameters<typeof isoCBOR.encode>[0];

/** Authenticator data flag bits (WebAuthn §6.1). */
export const AuthenticatorFlags = {
  UP: 0x01,
  UV: 0x04,
  BE: 0x08,
  BS: 0x10,
  AT: 0x40,
  ED: 0x80,
} as const;

export interface WebAuthnSoftwareAuthenticatorOptions {
  /** AAGUID as UUID text; default all zeros. */
  aaguid?: string;
  /** Initial signature counter of every credential created; default 0. */
  signCount?: number;
  /** Added to a credential's counter before each assertion; default 1 (0 keeps counters at 0). */
  counterStep?: number;
  /** Sets the BE flag. */
  backupEligible?: boolean;
  /** Sets the BS flag. */
  backupState?: boolean;
}

/** Overrides shared by registration and assertion, for negative tests. */
export interface CommonOverrides {
  /** clientData `type` (default `webauthn.create` / `webauthn.get`). */
  type?: string;
  /** clientData `origin` (default `opts.origin`). */
  origin?: string;
  /** clientData `challenge` (default the options' challenge). */
  challenge?: string;
  /** clientData `crossOrigin` (default false). */
  crossOrigin?: boolean;
  /** clientData `topOrigin` (omitted by default). */
  topOrigin?: string;
  /** Raw clientDataJSON used as-is; every other clientData override is then ignored. */
  clientDataJSON?: string;
  /** Put SHA-256 of this RP ID into authenticator data instead of the real one. */
  rpIdHashOf?: string;
  /** Explicit flags byte (see {@link AuthenticatorFlags}). */
  flags?: number;
  /** Explicit counter value to send; the stored counter is then left untouched. */
  signCount?: number;
  /** Bytes appended to the end of authenticator data. */
  extraAuthDataBytes?: Uint8Array;
  /** Flip a byte of the signature (the packed attestation signature on registration). */
  tamperSignature?: boolean;
}

export interface RegistrationOverrides extends CommonOverrides {
  /** `fmt` written into the attestation object (default `opts.fmt`). */
  fmt?: string;
  /** `attStmt` written into the attestation object instead of the generated one. */
  attStmt?: Map<string, CborValue> | Record<string, CborValue>;
  /** Attested credential id bytes instead of 16–32 random ones (an over-long or an existing id). */
  credentialId?: Uint8Array;
  /** `id` and `rawId` sent in the JSON instead of the attested credential id (base64url). */
  rawId?: string;
}

export interface AssertionOverrides extends CommonOverrides {
  /** `userHandle` to send (base64url) instead of the stored one; `null` omits it. */
  userHandle?: string | null;
}

/** The parts of `PublicKeyCredentialCreationOptionsJSON` the authenticator uses. */
export interface RegistrationOptionsLike {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

/** The parts of `PublicKeyCredentialRequestOptionsJSON` the authenticator uses. */
export interface AuthenticationOptionsLike {
  challenge: string;
  rpId?: string;
  allowCredentials?: readonly { id: string }[];
}

export interface RegisterOpts {
  origin: string;
  /** `none` (default) or `packed` self attestation. */
  fmt?: "none" | "packed";
  overrides?: RegistrationOverrides;
}

export interface LoginOpts {
  origin: string;
  /** Default `publicKey.rpId`, else the RP ID the credential was registered for. */
  rpId?: string;
  /** Default: the first allowed credential held, else the most recently registered. */
  credentialId?: string;
  overrides?: AssertionOverrides;
}

export interface StoredCredential {
  /** Credential id, base64url. */
  readonly id: string;
  readonly rpId: string;
  /** User handle bytes (the `user.id` given at registration). */
  readonly userHandle: Uint8Array;
  /** COSE-encoded public key, as stored by a relying party. */
  readonly publicKey: Uint8Array;
  readonly privateKey: KeyObject;
  signCount: number;
}

export function b64url(buf: Uint8Array): string {
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("base64url");
}

export function fromB64url(str: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(str, "base64url"));
}

function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

function parseAaguid(text: string): Uint8Array {
  const hex = text.replace(/-/g, "");
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`Invalid AAGUID: ${text}`);
  return new Uint8Array(Buffer.from(hex, "hex"));
}

function flipByte(sig: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(sig);
  const i = out.length - 1;
  out[i] = (out[i] ?? 0) ^ 0xff;
  return out;
}

function toCborMap(value: Map<string, CborValue> | Record<string, CborValue>): Map<string, CborValue> {
  return value instanceof Map ? value : new Map(Object.entries(value));
}

export class WebAuthnSoftwareAuthenticator {
  readonly aaguid: Uint8Array;
  private readonly initialSignCount: number;
  private readonly counterStep: number;
  private readonly backupEligible: boolean;
  private readonly backupState: boolean;
  private readonly store = new Map<string, StoredCredential>();

  constructor(options: WebAuthnSoftwareAuthenticatorOptions = {}) {
    this.aaguid = parseAaguid(options.aaguid ?? "00000000-0000-0000-0000-000000000000");
    this.initialSignCount = options.signCount ?? 0;
    this.counterStep = options.counterStep ?? 1;
    this.backupEligible = options.backupEligible ?? false;
    this.backupState = options.backupState ?? false;
  }

  /** All credentials, in registration order. */
  get credentials(): readonly StoredCredential[] {
    return [...this.store.values()];
  }

  credential(id: string): StoredCredential | undefined {
    return this.store.get(id);
  }

  /** `navigator.credentials.create()`: makes a new ES256 credential and returns its attestation. */
  async register(publicKey: RegistrationOptionsLike, opts: RegisterOpts): Promise<RegistrationResponseJSON> {
    const ov = opts.overrides ?? {};
    const rpId = publicKey.rp.id ?? new URL(opts.origin).hostname;

    const { privateKey, publicKey: pub } = await generateKeyPairAsync("ec", { namedCurve: "P-256" });
    const jwk = pub.export({ format: "jwk" });
    if (!jwk.x || !jwk.y) throw new Error("EC public key export failed");
    const coseKey = isoCBOR.encode(
      new Map<number, CborValue>([
        [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
        [cose.COSEKEYS.alg, cose.COSEALG.ES256],
        [cose.COSEKEYS.crv, cose.COSECRV.P256],
        [cose.COSEKEYS.x, fromB64url(jwk.x)],
        [cose.COSEKEYS.y, fromB64url(jwk.y)],
      ]),
    );

    const credentialId = ov.credentialId ?? new Uint8Array(randomBytes(randomInt(16, 33)));
    const stored: StoredCredential = {
      id: b64url(credentialId),
      rpId,
      userHandle: fromB64url(publicKey.user.id),
      publicKey: coseKey,
      privateKey,
      signCount: this.initialSignCount,
    };

    const credIdLength = new Uint8Array(2);
    new DataView(credIdLength.buffer).setUint16(0, credentialId.length);
    const authData = this.authenticatorData(
      rpId,
      AuthenticatorFlags.AT,
      ov,
      ov.signCount ?? stored.signCount,
      concat(this.aaguid, credIdLength, credentialId, coseKey),
    );

    const clientDataJSON = this.clientDataJSON("webauthn.create", publicKey.challenge, opts.origin, ov);
    const fmt = opts.fmt ?? "none";
    let attStmt = new Map<string, CborValue>();
    if (fmt === "packed") {
      let sig = new Uint8Array(sign("sha256", concat(authData, sha256(clientDataJSON)), privateKey));
      if (ov.tamperSignature) sig = flipByte(sig);
      attStmt = new Map<string, CborValue>([
        ["alg", cose.COSEALG.ES256],
        ["sig", sig],
      ]);
    }
    if (ov.attStmt) attStmt = toCborMap(ov.attStmt);

    const attestationObject = isoCBOR.encode(
      new Map<string, CborValue>([
        ["fmt", ov.fmt ?? fmt],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    );

    this.store.set(stored.id, stored);
    return {
      id: ov.rawId ?? stored.id,
      rawId: ov.rawId ?? stored.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON, "utf8")),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** `navigator.credentials.get()`: signs an assertion with a held credential. */
  async login(publicKey: AuthenticationOptionsLike, opts: LoginOpts): Promise<AuthenticationResponseJSON> {
    const ov = opts.overrides ?? {};
    const stored = this.pickCredential(publicKey, opts.credentialId);
    const rpId = opts.rpId ?? publicKey.rpId ?? stored.rpId;

    let signCount: number;
    if (ov.signCount !== undefined) {
      signCount = ov.signCount;
    } else {
      stored.signCount += this.counterStep;
      signCount = stored.signCount;
    }

    const authData = this.authenticatorData(rpId, 0, ov, signCount);
    const clientDataJSON = this.clientDataJSON("webauthn.get", publicKey.challenge, opts.origin, ov);
    let signature = new Uint8Array(
      sign("sha256", concat(authData, sha256(clientDataJSON)), stored.privateKey),
    );
    if (ov.tamperSignature) signature = flipByte(signature);

    const userHandle = ov.userHandle === undefined ? b64url(stored.userHandle) : ov.userHandle;
    return {
      id: stored.id,
      rawId: stored.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(Buffer.from(clientDataJSON, "utf8")),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private pickCredential(publicKey: AuthenticationOptionsLike, credentialId?: string): StoredCredential {
    if (credentialId !== undefined) {
      const found = this.store.get(credentialId);
      if (!found) throw new Error(`WebAuthnSoftwareAuthenticator holds no credential ${credentialId}`);
      return found;
    }
    for (const { id } of publicKey.allowCredentials ?? []) {
      const found = this.store.get(id);
      if (found) return found;
    }
    const all = this.credentials;
    const latest = all[all.length - 1];
    if (!latest) throw new Error("WebAuthnSoftwareAuthenticator holds no credentials");
    return latest;
  }

  private clientDataJSON(type: string, challenge: string, origin: string, ov: CommonOverrides): string {
    if (ov.clientDataJSON !== undefined) return ov.clientDataJSON;
    return JSON.stringify({
      type: ov.type ?? type,
      challenge: ov.challenge ?? challenge,
      origin: ov.origin ?? origin,
      crossOrigin: ov.crossOrigin ?? false,
      ...(ov.topOrigin === undefined ? {} : { topOrigin: ov.topOrigin }),
    });
  }

  private authenticatorData(
    rpId: string,
    extraFlags: number,
    ov: CommonOverrides,
    signCount: number,
    attestedCredentialData?: Uint8Array,
  ): Uint8Array {
    let flags = AuthenticatorFlags.UP | AuthenticatorFlags.UV | extraFlags;
    if (this.backupEligible) flags |= AuthenticatorFlags.BE;
    if (this.backupState) flags |= AuthenticatorFlags.BS;
    return concat(
      sha256(ov.rpIdHashOf ?? rpId),
      Uint8Array.of((ov.flags ?? flags) & 0xff),
      uint32(signCount),
      attestedCredentialData ?? new Uint8Array(0),
      ov.extraAuthDataBytes ?? new Uint8Array(0),
    );
  }
}
