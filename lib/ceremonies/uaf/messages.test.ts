import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64Lenient } from "./encoding";
import type { UafReason } from "./errors";
import { uafError } from "./fixtures/uaf-error";
import { vectorA, vectorB } from "./fixtures/public-vectors";
import {
  buildAuthenticationRequest,
  buildDeregistrationRequest,
  buildRegistrationRequest,
  finalChallengeHash,
  newServerChallenge,
  openServerData,
  parseUafRequest,
  parseUafResponse,
  sealServerData,
  serializeUafMessage,
  textTransaction,
} from "./messages";

const appID = "https://rp.example/uaf/facets";
const policy = { accepted: [[{ aaid: ["FFFF#5E5A"] }]] };

describe("requests", () => {
  it("builds a RegistrationRequest as the text of a one-element array", () => {
    const challenge = newServerChallenge();
    const request = buildRegistrationRequest({
      appID,
      serverData: "sd",
      challenge,
      username: "alice",
      policy,
    });
    const text = serializeUafMessage(request);
    expect(JSON.parse(text)).toEqual([
      {
        header: { upv: { major: 1, minor: 1 }, op: "Reg", appID, serverData: "sd" },
        challenge,
        username: "alice",
        policy,
      },
    ]);
    expect(parseUafRequest(text)).toEqual(request);
    expect(Buffer.from(challenge, "base64url")).toHaveLength(32);
  });

  it("builds an AuthenticationRequest with a text/plain transaction", () => {
    const request = buildAuthenticationRequest({
      appID,
      serverData: "sd",
      challenge: newServerChallenge(),
      policy: {
        accepted: [[{ aaid: ["FFFF#5E5A"], keyIDs: ["ZMCPn92yHv1Ip-iCiBb6i4ADq6ZOv569KFQCvYSJfNg"] }]],
      },
      transaction: [textTransaction("Pay 10 EUR to Bob")],
    });
    expect(request.header.op).toBe("Auth");
    expect(request.transaction?.[0]).toEqual({
      contentType: "text/plain",
      content: "UGF5IDEwIEVVUiB0byBCb2I",
    });
    expect(() => textTransaction("x".repeat(201))).toThrow(RangeError);
    expect(() => textTransaction("")).toThrow(RangeError);
  });

  it("builds a DeregistrationRequest and enforces the deregister-all rule", () => {
    const request = buildDeregistrationRequest({ appID, authenticators: [{ aaid: "FFFF#5E5A", keyID: "" }] });
    expect(request).toEqual({
      header: { upv: { major: 1, minor: 1 }, op: "Dereg", appID },
      authenticators: [{ aaid: "FFFF#5E5A", keyID: "" }],
    });
    expect(() =>
      buildDeregistrationRequest({
        appID,
        authenticators: [
          { aaid: "", keyID: "" },
          { aaid: "FFFF#5E5A", keyID: "" },
        ],
      }),
    ).toThrow();
  });

  it("refuses policies the spec forbids", () => {
    const build = (criteria: object) =>
      buildRegistrationRequest({
        appID,
        challenge: newServerChallenge(),
        username: "a",
        policy: { accepted: [[criteria]] } as never,
      });
    expect(() => build({ aaid: ["FFFF#5E5A"], userVerification: 2 })).toThrow();
    expect(() => build({ userVerification: 1023 })).toThrow();
    expect(() =>
      build({ userVerification: 1023, authenticationAlgorithms: [1], assertionSchemes: ["UAFV1TLV"] }),
    ).not.toThrow();
    expect(() => build({ aaid: ["not an aaid"] })).toThrow();
  });
});

describe("parseUafResponse", () => {
  const entry = (upv = { major: 1, minor: 1 }) => ({
    header: { upv, op: "Auth", appID: vectorA.appID },
    fcParams: vectorA.auth.fcParams,
    assertions: [{ assertionScheme: "UAFV1TLV", assertion: vectorA.auth.assertion }],
  });

  it("decodes fcParams and keeps the string as sent", () => {
    const parsed = parseUafResponse(JSON.stringify([entry()]));
    expect(parsed.fcParams).toBe(vectorA.auth.fcParams);
    expect(parsed.finalChallengeParams).toEqual({
      appID: vectorA.appID,
      challenge: vectorA.auth.challenge,
      channelBinding: {},
      facetID: vectorA.facetID,
    });
  });

  it("accepts the UAFMessage wrapper and picks the preferred supported version", () => {
    const wrapped = JSON.stringify({
      uafProtocolMessage: JSON.stringify([entry({ major: 1, minor: 0 }), entry()]),
    });
    expect(parseUafResponse(wrapped).header.upv).toEqual({ major: 1, minor: 1 });
    expect(parseUafResponse(JSON.stringify([entry({ major: 1, minor: 0 })])).header.upv).toEqual({
      major: 1,
      minor: 0,
    });
    expect(uafError(() => parseUafResponse(JSON.stringify([entry({ major: 2, minor: 0 })])))).toEqual([
      1498,
      "unsupported_version",
    ]);
  });

  it("decodes line-wrapped, padded fcParams (vector B) and decodes the escaped facet", () => {
    const parsed = parseUafResponse(
      JSON.stringify([
        {
          ...entry(),
          fcParams: vectorB.reg.fcParams,
          header: { upv: vectorB.upv, op: "Reg", appID: vectorB.appID },
        },
      ]),
    );
    expect(parsed.finalChallengeParams.facetID).toBe(vectorB.facetID);
    expect(parsed.fcParams).toContain("\n");
  });

  it("refuses malformed JSON, shapes, base64 and fcParams with 1498", () => {
    const bad: [string, UafReason][] = [
      ["not json", "malformed_message"],
      ["{}", "malformed_message"],
      ["[]", "malformed_message"],
      [JSON.stringify({ uafProtocolMessage: 42 }), "malformed_message"],
      [JSON.stringify([{ ...entry(), assertions: [] }]), "malformed_message"],
      [JSON.stringify([{ ...entry(), header: { op: "Auth" } }]), "malformed_message"],
      [JSON.stringify([{ ...entry(), fcParams: "e30*" }]), "malformed_fc_params"],
      [
        JSON.stringify([{ ...entry(), fcParams: Buffer.from("{not json").toString("base64url") }]),
        "malformed_fc_params",
      ],
      [
        JSON.stringify([{ ...entry(), fcParams: Buffer.from('{"appID":"a"}').toString("base64url") }]),
        "malformed_fc_params",
      ],
      [JSON.stringify(Array.from({ length: 5 }, () => entry())), "malformed_message"],
      ["x".repeat(70_000), "malformed_message"],
    ];
    for (const [text, reason] of bad) expect(uafError(() => parseUafResponse(text))).toEqual([1498, reason]);
  });
});

describe("finalChallengeHash", () => {
  it("hashes the fcParams string exactly as sent", () => {
    expect(finalChallengeHash(vectorA.reg.fcParams).toString("hex")).toBe(vectorA.reg.finalChallengeHashHex);
    expect(finalChallengeHash(vectorA.auth.fcParams).toString("hex")).toBe(
      vectorA.auth.finalChallengeHashHex,
    );
    expect(finalChallengeHash(`${vectorA.reg.fcParams}=`).toString("hex")).not.toBe(
      vectorA.reg.finalChallengeHashHex,
    );
  });
});

describe("decodeBase64Lenient", () => {
  it("accepts url and standard alphabets, padding and line breaks; refuses the rest", () => {
    const raw = randomBytes(100);
    const std = raw.toString("base64");
    expect(decodeBase64Lenient(raw.toString("base64url"))?.equals(raw)).toBe(true);
    expect(decodeBase64Lenient(std)?.equals(raw)).toBe(true);
    expect(decodeBase64Lenient(std.replace(/(.{76})/g, "$1\n"))?.equals(raw)).toBe(true);
    expect(decodeBase64Lenient("AB*C")).toBeUndefined();
    expect(decodeBase64Lenient("AB=C")).toBeUndefined();
    expect(decodeBase64Lenient("ABCDE")).toBeUndefined();
    expect(decodeBase64Lenient("ABC==")).toBeUndefined();
    expect(decodeBase64Lenient("")?.length).toBe(0);
  });
});

describe("serverData", () => {
  const key = randomBytes(32);
  const claims = {
    requestId: "5f0c3c36-3cbb-4c8e-9b8a-2a0f4ad3f1a1",
    expiresAt: new Date("2030-01-01T00:02:00Z"),
    challenge: "abc",
  };
  const before = new Date("2030-01-01T00:00:00Z");

  it("round-trips the claims under the key", () => {
    const sealed = sealServerData(claims, key);
    expect(sealed.length).toBeLessThanOrEqual(1536);
    expect(openServerData(sealed, key, before)).toEqual(claims);
  });

  it("refuses another key, tampering and expiry with 1491", () => {
    const sealed = sealServerData(claims, key);
    expect(uafError(() => openServerData(sealed, randomBytes(32), before))).toEqual([
      1491,
      "server_data_invalid",
    ]);
    const [version, body, tag] = sealed.split(".");
    const forged = Buffer.from(JSON.stringify({ r: claims.requestId, e: 4_102_444_800, c: "abc" })).toString(
      "base64url",
    );
    expect(uafError(() => openServerData(`${version}.${forged}.${tag}`, key, before))).toEqual([
      1491,
      "server_data_invalid",
    ]);
    expect(uafError(() => openServerData(`${version}.${body}`, key, before))).toEqual([
      1491,
      "server_data_invalid",
    ]);
    expect(uafError(() => openServerData("garbage", key, before))).toEqual([1491, "server_data_invalid"]);
    expect(uafError(() => openServerData(sealed, key, claims.expiresAt))).toEqual([
      1491,
      "server_data_expired",
    ]);
  });

  it("needs a key of at least 32 bytes", () => {
    expect(() => sealServerData(claims, randomBytes(16))).toThrow(RangeError);
  });
});
