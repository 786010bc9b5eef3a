import { describe, expect, it } from "vitest";
import { parseCertificate } from "./crypto";
import { decodeBase64Lenient } from "./encoding";
import { uafError } from "./fixtures/uaf-error";
import { vectorA, vectorB } from "./fixtures/public-vectors";
import { parseUafResponse, type Version } from "./messages";
import { Tag, decodeTlv, encodeTlv, parseRegAssertion } from "./tlv";
import {
  isTrustedFacet,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationExpectation,
  type RegistrationExpectation,
  type StoredRegistration,
  type VerifiedRegistration,
} from "./verify";

type Vector = typeof vectorA | typeof vectorB;
const upvOf = (vector: Vector): Version => ("upv" in vector ? vector.upv : { major: 1, minor: 1 });

function responseText(
  vector: Vector,
  op: "Reg" | "Auth",
  parts: { fcParams?: string; assertion?: string; serverData?: string } = {},
): string {
  const step = op === "Reg" ? vector.reg : vector.auth;
  const serverData = parts.serverData ?? ("serverData" in step ? step.serverData : undefined);
  return JSON.stringify([
    {
      header: { upv: upvOf(vector), op, appID: vector.appID, ...(serverData ? { serverData } : {}) },
      fcParams: parts.fcParams ?? step.fcParams,
      assertions: [{ assertionScheme: "UAFV1TLV", assertion: parts.assertion ?? step.assertion }],
    },
  ]);
}

/** The vectors' roots are not published: their attestation certificate is trusted as its own root. */
function leafPem(vector: Vector): string {
  const { attestation } = parseRegAssertion(decodeBase64Lenient(vector.reg.assertion) as Buffer);
  if (attestation.type !== "basic_full") throw new Error("vector without full attestation");
  return parseCertificate(attestation.certificates[0] as Buffer).toString();
}

function regExpectation(
  vector: Vector,
  overrides: Partial<RegistrationExpectation> = {},
): RegistrationExpectation {
  return {
    appID: vector.appID,
    challenge: vector.reg.challenge,
    trustedFacetIds: [vector.facetID],
    policy: { accepted: [[{ aaid: [vector.aaid] }]] },
    now: vector.validAt,
    attestation: { trustedRootsByAaid: { [vector.aaid]: [leafPem(vector)] }, allowSurrogate: false },
    ...overrides,
  };
}

function authExpectation<R extends StoredRegistration>(
  vector: Vector,
  registrations: R[],
  overrides: Partial<AuthenticationExpectation<R>> = {},
): AuthenticationExpectation<R> {
  return {
    appID: vector.appID,
    challenge: vector.auth.challenge,
    trustedFacetIds: [vector.facetID],
    policy: { accepted: [[{ aaid: [vector.aaid] }]] },
    now: vector.validAt,
    registrations,
    ...overrides,
  };
}

/** Flips one bit of the assertion at `offset` bytes from the start (negative: from the end). */
function flipAssertionBit(assertion: string, offset: number): string {
  const bytes = decodeBase64Lenient(assertion) as Buffer;
  const index = offset < 0 ? bytes.length + offset : offset;
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return bytes.toString("base64url");
}

const registerVector = (vector: Vector): VerifiedRegistration =>
  verifyRegistrationResponse(parseUafResponse(responseText(vector, "Reg")), regExpectation(vector));

describe("public vector A (FIDO spec examples 9 and 11)", () => {
  it("verifies the registration and then the authentication", () => {
    const registration = registerVector(vectorA);
    expect(registration).toMatchObject({
      aaid: "ABCD#ABCD",
      signatureAlgAndEncoding: 1,
      publicKeyAlgAndEncoding: 0x100,
      signCounter: 1,
      regCounter: 1,
      attestationType: "basic_full",
      facetId: vectorA.facetID,
    });
    expect(registration.keyId.toString("base64url")).toBe(vectorA.keyId);
    expect(registration.publicKey.toString("base64url")).toBe(vectorA.publicKey);
    expect(registration.attestationCertificates).toHaveLength(1);

    const stored = { ...registration, id: "reg-1" };
    const auth = verifyAuthenticationResponse(
      parseUafResponse(responseText(vectorA, "Auth")),
      authExpectation(vectorA, [stored]),
    );
    expect(auth.registration.id).toBe("reg-1");
    expect(auth.signCounter).toBe(2);
    expect(auth.authenticationMode).toBe(1);
    expect(auth.transaction).toBeUndefined();
  });

  it("fails once the attestation certificate has expired, or before it was valid", () => {
    const parsed = parseUafResponse(responseText(vectorA, "Reg"));
    for (const now of [new Date("2017-05-25T00:00:00Z"), new Date("2014-08-01T00:00:00Z")]) {
      expect(uafError(() => verifyRegistrationResponse(parsed, regExpectation(vectorA, { now })))).toEqual([
        1496,
        "attestation_expired",
      ]);
    }
  });

  it("fails without a trusted root for the AAID", () => {
    const parsed = parseUafResponse(responseText(vectorA, "Reg"));
    const attestation = { allowSurrogate: true };
    expect(
      uafError(() => verifyRegistrationResponse(parsed, regExpectation(vectorA, { attestation }))),
    ).toEqual([1480, "unknown_aaid"]);
    const wrongAaid = { trustedRootsByAaid: { "ABCD#0000": [leafPem(vectorA)] }, allowSurrogate: false };
    expect(
      uafError(() => verifyRegistrationResponse(parsed, regExpectation(vectorA, { attestation: wrongAaid }))),
    ).toEqual([1480, "unknown_aaid"]);
  });

  it("fails when tampered", () => {
    const reg = (parts: Parameters<typeof responseText>[2]) => () =>
      verifyRegistrationResponse(
        parseUafResponse(responseText(vectorA, "Reg", parts)),
        regExpectation(vectorA),
      );
    // A byte of the attestation signature over the KRD.
    const attestationSignatureOffset = 4 + 4 + 0xb1 + 4 + 4 + 10; // a byte inside TAG_SIGNATURE of the attestation
    expect(
      uafError(reg({ assertion: flipAssertionBit(vectorA.reg.assertion, attestationSignatureOffset) })),
    ).toEqual([1496, "attestation_signature_invalid"]);
    // The last byte of the KRD (the public key's y): the point leaves the curve.
    expect(uafError(reg({ assertion: flipAssertionBit(vectorA.reg.assertion, 4 + 0xb1) }))).toEqual([
      1494,
      "bad_public_key",
    ]);
    // The counters inside the KRD.
    const countersOffset =
      (decodeBase64Lenient(vectorA.reg.assertion) as Buffer).indexOf(Buffer.from([0x0d, 0x2e, 0x08, 0x00])) +
      4;
    expect(uafError(reg({ assertion: flipAssertionBit(vectorA.reg.assertion, countersOffset) }))).toEqual([
      1496,
      "attestation_signature_invalid",
    ]);
    // The other step's fcParams: challenge and hash no longer match.
    expect(uafError(reg({ fcParams: vectorA.auth.fcParams }))).toEqual([1491, "challenge_mismatch"]);

    const registration = registerVector(vectorA);
    const auth = (parts: Parameters<typeof responseText>[2]) => () =>
      verifyAuthenticationResponse(
        parseUafResponse(responseText(vectorA, "Auth", parts)),
        authExpectation(vectorA, [registration]),
      );
    expect(uafError(auth({ assertion: flipAssertionBit(vectorA.auth.assertion, -1) }))).toEqual([
      1498,
      "signature_invalid",
    ]);
    const counterOffset =
      (decodeBase64Lenient(vectorA.auth.assertion) as Buffer).indexOf(Buffer.from([0x0d, 0x2e, 0x04, 0x00])) +
      4;
    expect(uafError(auth({ assertion: flipAssertionBit(vectorA.auth.assertion, counterOffset) }))).toEqual([
      1498,
      "signature_invalid",
    ]);
  });

  it("checks the final challenge hash against fcParams", () => {
    // Same decoded JSON, re-encoded with padding: a different string, so a different hash.
    const padded = Buffer.from(vectorA.auth.fcParams, "base64url").toString("base64");
    const registration = registerVector(vectorA);
    const parsed = parseUafResponse(responseText(vectorA, "Auth", { fcParams: padded }));
    expect(parsed.finalChallengeParams.challenge).toBe(vectorA.auth.challenge);
    expect(
      uafError(() => verifyAuthenticationResponse(parsed, authExpectation(vectorA, [registration]))),
    ).toEqual([1498, "final_challenge_hash_mismatch"]);
  });

  it("refuses a replayed authentication (counter not above the stored one)", () => {
    const registration = { ...registerVector(vectorA), signCounter: 2 };
    const parsed = parseUafResponse(responseText(vectorA, "Auth"));
    expect(
      uafError(() => verifyAuthenticationResponse(parsed, authExpectation(vectorA, [registration]))),
    ).toEqual([1493, "counter_regression"]);
  });

  it("refuses a key the request does not know", () => {
    const parsed = parseUafResponse(responseText(vectorA, "Auth"));
    expect(uafError(() => verifyAuthenticationResponse(parsed, authExpectation(vectorA, [])))).toEqual([
      1481,
      "unknown_key_id",
    ]);
  });

  it("refuses wrong context: facet, AppID, challenge, operation, serverData", () => {
    const parsed = parseUafResponse(responseText(vectorA, "Reg"));
    const check = (overrides: Partial<RegistrationExpectation>) => () =>
      verifyRegistrationResponse(parsed, regExpectation(vectorA, overrides));
    expect(uafError(check({ trustedFacetIds: ["com.example.other"] }))).toEqual([1403, "untrusted_facet"]);
    expect(uafError(check({ challenge: vectorA.auth.challenge }))).toEqual([1491, "challenge_mismatch"]);
    expect(uafError(check({ appID: "https://other.example/facets" }))).toEqual([1498, "app_id_mismatch"]);
    expect(uafError(check({ serverData: "something else" }))).toEqual([1491, "server_data_mismatch"]);
    expect(uafError(check({ policy: { accepted: [[{ aaid: ["FFFF#0001"] }]] } }))).toEqual([
      1492,
      "policy_not_satisfied",
    ]);
    expect(
      uafError(
        check({ policy: { accepted: [[{ aaid: ["ABCD#ABCD"] }]], disallowed: [{ aaid: ["ABCD#ABCD"] }] } }),
      ),
    ).toEqual([1492, "disallowed_authenticator"]);
    expect(() => check({ serverData: vectorA.reg.serverData })()).not.toThrow();
    expect(uafError(() => verifyAuthenticationResponse(parsed, authExpectation(vectorA, [])))).toEqual([
      1498,
      "wrong_operation",
    ]);
  });
});

describe("public vector B (eBay-based Android client, line-wrapped base64)", () => {
  it("verifies the registration (vendor tags in the KRD) and the authentication (counters 0, 0)", () => {
    const registration = registerVector(vectorB);
    expect(registration).toMatchObject({
      aaid: "EBA0#0001",
      signatureAlgAndEncoding: 2,
      publicKeyAlgAndEncoding: 0x101,
      signCounter: 0,
      upv: { major: 1, minor: 0 },
    });
    expect(registration.keyId.toString("base64url")).toBe(vectorB.keyId);
    const auth = verifyAuthenticationResponse(
      parseUafResponse(responseText(vectorB, "Auth")),
      authExpectation(vectorB, [registration]),
    );
    expect(auth.signCounter).toBe(0);
  });

  it("hashes fcParams with its line feeds: stripping them breaks the hash", () => {
    const parsed = parseUafResponse(
      responseText(vectorB, "Reg", { fcParams: vectorB.reg.fcParams.replace(/\n/g, "") }),
    );
    expect(uafError(() => verifyRegistrationResponse(parsed, regExpectation(vectorB)))).toEqual([
      1498,
      "final_challenge_hash_mismatch",
    ]);
  });

  it("fails with an expired certificate and when tampered", () => {
    const parsed = parseUafResponse(responseText(vectorB, "Reg"));
    expect(
      uafError(() =>
        verifyRegistrationResponse(
          parsed,
          regExpectation(vectorB, { now: new Date("2015-05-01T00:00:00Z") }),
        ),
      ),
    ).toEqual([1496, "attestation_expired"]);
    // The vendor tag 0x3FFD's value (inside the signed KRD).
    const bytes = decodeBase64Lenient(vectorB.reg.assertion) as Buffer;
    const vendorOffset = bytes.indexOf(Buffer.from([0xfd, 0x3f])) + 4;
    const tampered = flipAssertionBit(vectorB.reg.assertion, vendorOffset);
    expect(
      uafError(() =>
        verifyRegistrationResponse(
          parseUafResponse(responseText(vectorB, "Reg", { assertion: tampered })),
          regExpectation(vectorB),
        ),
      ),
    ).toEqual([1496, "attestation_signature_invalid"]);

    const registration = registerVector(vectorB);
    const badAuth = flipAssertionBit(vectorB.auth.assertion, -2);
    expect(
      uafError(() =>
        verifyAuthenticationResponse(
          parseUafResponse(responseText(vectorB, "Auth", { assertion: badAuth })),
          authExpectation(vectorB, [registration]),
        ),
      ),
    ).toEqual([1498, "signature_invalid"]);
  });

  it("refuses the vendor tags when they are not tolerated", () => {
    const parsed = parseUafResponse(responseText(vectorB, "Reg"));
    expect(
      uafError(() =>
        verifyRegistrationResponse(parsed, regExpectation(vectorB, { tlv: { tolerate: () => false } })),
      ),
    ).toEqual([1498, "malformed_assertion"]);
  });

  it("compares android facets by their hash bytes", () => {
    const hash = vectorB.facetID.slice("android:apk-key-hash:".length);
    const std = `android:apk-key-hash:${Buffer.from(hash, "base64url").toString("base64").replace(/=+$/, "")}`;
    expect(isTrustedFacet(vectorB.facetID, { appID: vectorB.appID, trustedFacetIds: [std] })).toBe(true);
    expect(
      isTrustedFacet(vectorB.facetID, {
        appID: vectorB.appID,
        trustedFacetIds: ["android:apk-key-hash:AAAA"],
      }),
    ).toBe(false);
    expect(isTrustedFacet("ios:bundle-id:x", { appID: "ios:bundle-id:x", trustedFacetIds: [] })).toBe(true);
  });
});

describe("malformed responses", () => {
  it("refuses malformed assertions with 1498", () => {
    const registration = registerVector(vectorA);
    const check = (assertion: string) => () =>
      verifyAuthenticationResponse(
        parseUafResponse(responseText(vectorA, "Auth", { assertion })),
        authExpectation(vectorA, [registration]),
      );
    const bytes = decodeBase64Lenient(vectorA.auth.assertion) as Buffer;
    expect(uafError(check("not*base64"))).toEqual([1498, "malformed_assertion"]);
    expect(uafError(check(bytes.subarray(0, bytes.length - 3).toString("base64url")))).toEqual([
      1498,
      "malformed_assertion",
    ]);
    expect(uafError(check(Buffer.concat([bytes, Buffer.from([0])]).toString("base64url")))).toEqual([
      1498,
      "malformed_assertion",
    ]);
    const wrongOuter = encodeTlv(
      Tag.UAFV1_REG_ASSERTION,
      ...(decodeTlv(bytes).children ?? []).map((child) => child.raw),
    );
    expect(uafError(check(wrongOuter.toString("base64url")))).toEqual([1498, "malformed_assertion"]);
  });

  it("refuses responses without a UAFV1TLV assertion", () => {
    const text = JSON.stringify([
      {
        header: { upv: { major: 1, minor: 1 }, op: "Auth", appID: vectorA.appID },
        fcParams: vectorA.auth.fcParams,
        assertions: [{ assertionScheme: "OTHER", assertion: vectorA.auth.assertion }],
      },
    ]);
    expect(
      uafError(() => verifyAuthenticationResponse(parseUafResponse(text), authExpectation(vectorA, []))),
    ).toEqual([1498, "no_assertion"]);
  });
});
