import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestAttestationCa } from "./certificates";
import { uafError } from "./fixtures/uaf-error";
import {
  buildAuthenticationRequest,
  buildDeregistrationRequest,
  buildRegistrationRequest,
  newServerChallenge,
  parseUafResponse,
  sealServerData,
  serializeUafMessage,
  textTransaction,
  type Policy,
  type Transaction,
} from "./messages";
import {
  SoftwareAuthenticatorError,
  SoftwareUafAuthenticator,
  type AuthenticateOptions,
  type ResponseOverrides,
} from "./software-uaf-authenticator";
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AttestationTrust,
  type AuthenticationExpectation,
  type RegistrationExpectation,
  type VerifiedRegistration,
} from "./verify";

/**
 * The relying-party side as the HTTP layer will do it: issue a request with sealed serverData, keep
 * what verification needs, verify the software authenticator's answer.
 */
const appID = "https://rp.example/uaf/facets";
const facetId = "https://rp.example";
const serverDataKey = randomBytes(32);
const now = new Date();
const surrogateOnly: AttestationTrust = { allowSurrogate: true };

function issue(expiresInSeconds = 120) {
  const requestId = randomUUID();
  const challenge = newServerChallenge();
  const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000);
  return {
    requestId,
    challenge,
    serverData: sealServerData({ requestId, expiresAt, challenge }, serverDataKey),
  };
}

function startRegistration(
  options: { username?: string; policy?: Policy; attestation?: AttestationTrust } = {},
): { request: string; expected: RegistrationExpectation } {
  const { requestId, challenge, serverData } = issue();
  const policy = options.policy ?? { accepted: [[{ aaid: ["FFFF#5E5A"] }]] };
  const request = buildRegistrationRequest({
    appID,
    serverData,
    challenge,
    username: options.username ?? "alice",
    policy,
  });
  return {
    request: serializeUafMessage(request),
    expected: {
      appID,
      challenge,
      serverData,
      serverDataKey,
      requestId,
      trustedFacetIds: [facetId],
      policy,
      now,
      attestation: options.attestation ?? surrogateOnly,
    },
  };
}

function startAuthentication(
  registrations: VerifiedRegistration[],
  options: { transaction?: Transaction[]; policy?: Policy } = {},
): { request: string; expected: AuthenticationExpectation<VerifiedRegistration> } {
  const { requestId, challenge, serverData } = issue();
  const policy = options.policy ?? {
    accepted: registrations.map((registration) => [
      { aaid: [registration.aaid], keyIDs: [registration.keyId.toString("base64url")] },
    ]),
  };
  const request = buildAuthenticationRequest({
    appID,
    serverData,
    challenge,
    policy,
    transaction: options.transaction,
  });
  return {
    request: serializeUafMessage(request),
    expected: {
      appID,
      challenge,
      serverData,
      serverDataKey,
      requestId,
      trustedFacetIds: [facetId],
      policy,
      now,
      registrations,
      ...(options.transaction ? { transaction: options.transaction } : {}),
    },
  };
}

function register(
  authenticator: SoftwareUafAuthenticator,
  overrides: ResponseOverrides = {},
  options: Parameters<typeof startRegistration>[0] = {},
): VerifiedRegistration {
  const { request, expected } = startRegistration(options);
  return verifyRegistrationResponse(parseUafResponse(authenticator.register(request, overrides)), expected);
}

function authenticate(
  authenticator: SoftwareUafAuthenticator,
  registrations: VerifiedRegistration[],
  overrides: AuthenticateOptions = {},
  options: Parameters<typeof startAuthentication>[1] = {},
) {
  const { request, expected } = startAuthentication(registrations, options);
  return verifyAuthenticationResponse(
    parseUafResponse(authenticator.authenticate(request, overrides)),
    expected,
  );
}

const newAuthenticator = (options: { aaid?: string; attestation?: "basic_full" | "basic_surrogate" } = {}) =>
  SoftwareUafAuthenticator.create({ facetId, now, ...options });

describe("software authenticator against the verifier", () => {
  it("REG → AUTH with a transaction → AUTH → DEREG", () => {
    const authenticator = newAuthenticator();
    const registration = register(authenticator);
    expect(registration).toMatchObject({
      aaid: "FFFF#5E5A",
      signatureAlgAndEncoding: 1,
      publicKeyAlgAndEncoding: 0x100,
      attestationType: "basic_surrogate",
      signCounter: 0,
      regCounter: 1,
      facetId,
      upv: { major: 1, minor: 1 },
    });
    expect(registration.publicKey).toHaveLength(65);

    const transaction = [textTransaction("Pay 10 EUR to Bob")];
    const { request } = startAuthentication([registration], { transaction });
    expect(authenticator.describe(request)).toEqual({
      op: "Auth",
      appID,
      transactionText: "Pay 10 EUR to Bob",
    });
    const confirmed = authenticate(authenticator, [registration], {}, { transaction });
    expect(confirmed).toMatchObject({ authenticationMode: 2, signCounter: 1, transaction: transaction[0] });
    expect(confirmed.registration).toBe(registration);

    const stored = { ...registration, signCounter: confirmed.signCounter };
    const plain = authenticate(authenticator, [stored]);
    expect(plain).toMatchObject({ authenticationMode: 1, signCounter: 2 });
    expect(plain.transaction).toBeUndefined();

    const dereg = buildDeregistrationRequest({
      appID,
      authenticators: [{ aaid: registration.aaid, keyID: registration.keyId.toString("base64url") }],
    });
    expect(authenticator.respond(serializeUafMessage(dereg))).toEqual({ op: "Dereg", removed: 1 });
    expect(authenticator.state.keys).toHaveLength(0);
    expect(() => authenticator.authenticate(startAuthentication([stored]).request)).toThrow(
      SoftwareAuthenticatorError,
    );
  });

  it("registers with basic full attestation under its test CA", () => {
    const authenticator = newAuthenticator({ attestation: "basic_full" });
    const root = authenticator.attestationRootPem as string;
    const trust = { trustedRootsByAaid: { "FFFF#5E5A": [root] }, allowSurrogate: false };
    const registration = register(authenticator, {}, { attestation: trust });
    expect(registration.attestationType).toBe("basic_full");
    expect(registration.attestationCertificates).toHaveLength(1);
    expect(authenticate(authenticator, [registration]).signCounter).toBe(1);

    const otherRoot = createTestAttestationCa({ notBefore: now, notAfter: new Date(now.getTime() + 1e9) })
      .root.pem;
    expect(
      uafError(() =>
        register(authenticator, {}, { attestation: { trustedRoots: [otherRoot], allowSurrogate: true } }),
      ),
    ).toEqual([1496, "attestation_untrusted"]);
    expect(uafError(() => register(authenticator, {}, { attestation: surrogateOnly }))).toEqual([
      1480,
      "unknown_aaid",
    ]);
    expect(
      uafError(() => register(authenticator, { tamperSignature: true }, { attestation: trust })),
    ).toEqual([1496, "attestation_signature_invalid"]);
  });

  it("keeps its keys in a serialisable state", () => {
    const authenticator = newAuthenticator();
    const registration = register(authenticator);
    const first = authenticate(authenticator, [registration]);
    const restored = new SoftwareUafAuthenticator(JSON.parse(JSON.stringify(authenticator.state)));
    const second = authenticate(restored, [{ ...registration, signCounter: first.signCounter }]);
    expect(second.signCounter).toBe(2);
    expect(restored.state.keys[0]?.signCounter).toBe(2);
    expect(() => new SoftwareUafAuthenticator({ ...authenticator.state, aaid: "nope" })).toThrow();
  });

  it("deregisters every key of an AppID with empty aaid and keyID", () => {
    const authenticator = newAuthenticator();
    register(authenticator, {}, { username: "alice" });
    register(authenticator, {}, { username: "bob" });
    const otherApp = buildRegistrationRequest({
      appID: "https://other.example/facets",
      challenge: newServerChallenge(),
      username: "carol",
      policy: { accepted: [[{ aaid: ["FFFF#5E5A"] }]] },
    });
    authenticator.register(serializeUafMessage(otherApp));
    const all = buildDeregistrationRequest({ appID, authenticators: [{ aaid: "", keyID: "" }] });
    expect(authenticator.deregister(serializeUafMessage(all))).toEqual({ removed: 2 });
    expect(authenticator.state.keys.map((key) => key.username)).toEqual(["carol"]);
  });
});

describe("negative cases", () => {
  const authenticator = newAuthenticator();
  const registration = register(authenticator);

  it("wrong challenge, wrong final challenge hash", () => {
    expect(uafError(() => register(authenticator, { challenge: newServerChallenge() }))).toEqual([
      1491,
      "challenge_mismatch",
    ]);
    expect(
      uafError(() => authenticate(authenticator, [registration], { challenge: newServerChallenge() })),
    ).toEqual([1491, "challenge_mismatch"]);
    expect(uafError(() => register(authenticator, { finalChallengeHash: randomBytes(32) }))).toEqual([
      1498,
      "final_challenge_hash_mismatch",
    ]);
    expect(
      uafError(() => authenticate(authenticator, [registration], { finalChallengeHash: randomBytes(32) })),
    ).toEqual([1498, "final_challenge_hash_mismatch"]);
  });

  it("wrong facet or AppID in fcParams", () => {
    expect(uafError(() => register(authenticator, { facetId: "https://evil.example" }))).toEqual([
      1403,
      "untrusted_facet",
    ]);
    expect(
      uafError(() => authenticate(authenticator, [registration], { facetId: "android:apk-key-hash:AAAA" })),
    ).toEqual([1403, "untrusted_facet"]);
    expect(uafError(() => register(authenticator, { appID: "https://evil.example/facets" }))).toEqual([
      1403,
      "app_id_mismatch",
    ]);
  });

  it("channel binding that differs from the server's", () => {
    const { request, expected } = startAuthentication([registration]);
    const response = authenticator.authenticate(request, { channelBinding: { serverEndPoint: "theirs" } });
    expect(
      uafError(() =>
        verifyAuthenticationResponse(parseUafResponse(response), {
          ...expected,
          channelBinding: { serverEndPoint: "ours" },
        }),
      ),
    ).toEqual([1490, "channel_binding_mismatch"]);
  });

  it("bad signatures", () => {
    expect(uafError(() => register(authenticator, { tamperSignature: true }))).toEqual([
      1496,
      "attestation_signature_invalid",
    ]);
    expect(uafError(() => authenticate(authenticator, [registration], { tamperSignature: true }))).toEqual([
      1498,
      "signature_invalid",
    ]);
  });

  it("counter regression and replay", () => {
    const fresh = newAuthenticator();
    const reg = register(fresh);
    const { request, expected } = startAuthentication([reg]);
    const response = parseUafResponse(fresh.authenticate(request));
    const first = verifyAuthenticationResponse(response, expected);
    const stored = { ...reg, signCounter: first.signCounter };
    // The same response again: the stored counter has caught up with it.
    expect(
      uafError(() => verifyAuthenticationResponse(response, { ...expected, registrations: [stored] })),
    ).toEqual([1493, "counter_regression"]);
    for (const signCounter of [0, first.signCounter]) {
      expect(uafError(() => authenticate(fresh, [stored], { signCounter }))).toEqual([
        1493,
        "counter_regression",
      ]);
    }
    expect(authenticate(fresh, [stored]).signCounter).toBe(2);
  });

  it("unknown AAID under a strict policy", () => {
    const stranger = newAuthenticator({ aaid: "FFFF#0BAD" });
    expect(() => stranger.register(startRegistration().request)).toThrow(
      expect.objectContaining({ code: "not_acceptable" }),
    );
    expect(uafError(() => register(stranger, { ignorePolicy: true }))).toEqual([
      1492,
      "policy_not_satisfied",
    ]);
    // Claiming another AAID inside the assertion does not help at authentication: no such key, whatever
    // the policy (the key is looked up before the policy is checked).
    const lenient: Policy = {
      accepted: [[{ authenticationAlgorithms: [1], assertionSchemes: ["UAFV1TLV"] }]],
    };
    expect(
      uafError(() => authenticate(authenticator, [registration], { aaid: "FFFF#0BAD" }, { policy: lenient })),
    ).toEqual([1481, "unknown_key_id"]);
    expect(uafError(() => authenticate(authenticator, [registration], { aaid: "FFFF#0BAD" }))).toEqual([
      1481,
      "unknown_key_id",
    ]);
  });

  it("already registered: disallowed by the policy", () => {
    const policy: Policy = {
      accepted: [[{ aaid: ["FFFF#5E5A"] }]],
      disallowed: [{ aaid: ["FFFF#5E5A"], keyIDs: [registration.keyId.toString("base64url")] }],
    };
    expect(() => authenticator.register(startRegistration({ policy }).request)).toThrow(
      expect.objectContaining({ code: "already_registered" }),
    );
    expect(
      uafError(() =>
        register(
          authenticator,
          { ignorePolicy: true },
          { policy: { ...policy, disallowed: [{ aaid: ["FFFF#5E5A"] }] } },
        ),
      ),
    ).toEqual([1492, "disallowed_authenticator"]);
  });

  it("surrogate attestation when only full attestation is trusted", () => {
    expect(
      uafError(() => register(authenticator, {}, { attestation: { allowSurrogate: ["FFFF#0001"] } })),
    ).toEqual([1496, "attestation_not_accepted"]);
  });

  it("transaction not confirmed, or another text confirmed", () => {
    const transaction = [textTransaction("Pay 10 EUR to Bob")];
    expect(
      uafError(() => authenticate(authenticator, [registration], { skipTransaction: true }, { transaction })),
    ).toEqual([1498, "transaction_not_confirmed"]);
    expect(
      uafError(() =>
        authenticate(
          authenticator,
          [registration],
          { transactionText: "Pay 1000 EUR to Eve" },
          { transaction },
        ),
      ),
    ).toEqual([1498, "transaction_mismatch"]);
    // A confirmation the server never asked for.
    const { request, expected } = startAuthentication([registration], { transaction });
    const response = parseUafResponse(authenticator.authenticate(request));
    const { transaction: _sent, ...withoutTransaction } = expected;
    expect(uafError(() => verifyAuthenticationResponse(response, withoutTransaction))).toEqual([
      1498,
      "wrong_authentication_mode",
    ]);
  });

  it("a short authenticator nonce", () => {
    expect(uafError(() => authenticate(authenticator, [registration], { nonceLength: 4 }))).toEqual([
      1498,
      "nonce_too_short",
    ]);
  });

  it("serverData: another request's, forged, expired", () => {
    const { request, expected } = startAuthentication([registration]);
    const other = issue();
    const response = (serverData: string) =>
      parseUafResponse(authenticator.authenticate(request, { header: { serverData } }));
    expect(uafError(() => verifyAuthenticationResponse(response(other.serverData), expected))).toEqual([
      1491,
      "server_data_mismatch",
    ]);
    const { serverData: _issued, ...keyOnly } = expected;
    expect(uafError(() => verifyAuthenticationResponse(response(other.serverData), keyOnly))).toEqual([
      1491,
      "server_data_invalid",
    ]);
    expect(
      uafError(() => verifyAuthenticationResponse(response(`${expected.serverData}x`), keyOnly)),
    ).toEqual([1491, "server_data_invalid"]);
    const later = new Date(now.getTime() + 121_000);
    const valid = parseUafResponse(authenticator.authenticate(request));
    expect(uafError(() => verifyAuthenticationResponse(valid, { ...expected, now: later }))).toEqual([
      1491,
      "server_data_expired",
    ]);
  });

  it("a response for the other operation", () => {
    const { request } = startRegistration();
    const { expected } = startAuthentication([registration]);
    const response = parseUafResponse(authenticator.register(request, { ignorePolicy: true }));
    expect(uafError(() => verifyAuthenticationResponse(response, expected))).toEqual([
      1498,
      "wrong_operation",
    ]);
  });

  it("malformed base64, JSON and TLV", () => {
    const { request, expected } = startAuthentication([registration]);
    const text = authenticator.authenticate(request);
    const [message] = JSON.parse(text) as [{ assertions: { assertion: string }[] }];
    const withAssertion = (assertion: string) =>
      JSON.stringify([{ ...message, assertions: [{ assertionScheme: "UAFV1TLV", assertion }] }]);
    const assertion = message.assertions[0]?.assertion ?? "";
    const verify = (uafResponse: string) => () =>
      verifyAuthenticationResponse(parseUafResponse(uafResponse), expected);

    expect(uafError(verify(withAssertion(`${assertion}$`)))).toEqual([1498, "malformed_assertion"]);
    expect(uafError(verify(text.slice(0, -2)))).toEqual([1498, "malformed_message"]);
    const bytes = Buffer.from(assertion, "base64url");
    expect(uafError(verify(withAssertion(bytes.subarray(0, 40).toString("base64url"))))).toEqual([
      1498,
      "malformed_assertion",
    ]);
    const longer = Buffer.from(bytes);
    longer.writeUInt16LE(longer.readUInt16LE(2) + 1, 2); // outer length one byte too long
    expect(uafError(verify(withAssertion(longer.toString("base64url"))))).toEqual([
      1498,
      "malformed_assertion",
    ]);
    expect(uafError(verify(JSON.stringify([{ ...message, fcParams: "%%%" }])))).toEqual([
      1498,
      "malformed_fc_params",
    ]);
  });

  it("the authenticator refuses malformed or unexpected requests", () => {
    expect(() => authenticator.register("not json")).toThrow(
      expect.objectContaining({ code: "malformed_request" }),
    );
    const { request } = startAuthentication([registration]);
    expect(() => authenticator.register(request)).toThrow(
      expect.objectContaining({ code: "wrong_operation" }),
    );
    const png: Transaction = {
      contentType: "image/png",
      content: "iVBORw0KGgo",
      tcDisplayPNGCharacteristics: {
        width: 1,
        height: 1,
        bitDepth: 8,
        colorType: 6,
        compression: 0,
        filter: 0,
        interlace: 0,
      },
    };
    const withPng = startAuthentication([registration], { transaction: [png] }).request;
    expect(() => authenticator.authenticate(withPng)).toThrow(
      expect.objectContaining({ code: "unsupported_transaction" }),
    );
  });
});
