import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  SoftwareUafAuthenticator,
  decodeBase64Lenient,
  newServerChallenge,
  toBase64Url,
  type AuthenticateOptions,
} from "@/lib/ceremonies/uaf";
import {
  auditEventsOf,
  createUafRequest,
  editResponse,
  registerDevice,
  setupUafTenant,
  storedRegistrations,
  storedRequest,
  validateUafRequest,
  type RequestBody,
  type UafTestTenant,
  UAF_FACET_ID,
} from "../helpers/authenticator-api";

/**
 * Every check of fido-uaf.md §4 that a response can fail, through PUT /v1/uaf/requests/{id}: the
 * request becomes FAILED with the exact UAF {code, reason}, nothing is stored (no registration, no
 * counter moved), the failure is audited, and the request never leaves FAILED again.
 */

type Edit = (uafResponse: string) => string;

/** Replaces the (first) assertion's bytes. */
const editAssertion =
  (edit: (bytes: Buffer) => Buffer | string): Edit =>
  (uafResponse) =>
    editResponse(uafResponse, (entry) => {
      const [assertion] = entry.assertions as { assertion: string }[];
      const edited = edit(decodeBase64Lenient(assertion!.assertion)!);
      assertion!.assertion = typeof edited === "string" ? edited : toBase64Url(edited);
    });

const setField =
  (field: string, value: unknown): Edit =>
  (uafResponse) =>
    editResponse(uafResponse, (entry) => {
      entry[field] = value;
    });

/** Changes one character in the middle of serverData (its MAC part). */
const tamperServerData: Edit = (uafResponse) =>
  editResponse(uafResponse, (entry) => {
    const header = entry.header as { serverData: string };
    const at = header.serverData.length - 5;
    const swapped = header.serverData[at] === "A" ? "B" : "A";
    header.serverData = header.serverData.slice(0, at) + swapped + header.serverData.slice(at + 1);
  });

/** Ways to break a response that apply to REG and AUTH alike. */
function commonCases(): [string, AuthenticateOptions, Edit | undefined, { code: number; reason: string }][] {
  return [
    [
      "another challenge in fcParams",
      { challenge: newServerChallenge() },
      undefined,
      { code: 1491, reason: "challenge_mismatch" },
    ],
    [
      "a final challenge hash that is not SHA-256(fcParams)",
      { finalChallengeHash: randomBytes(32) },
      undefined,
      { code: 1498, reason: "final_challenge_hash_mismatch" },
    ],
    [
      // The tenant's AppID is empty (the app's own FacetID), so a client on another facet also
      // claims that facet as the AppID.
      "an untrusted FacetID",
      { facetId: "https://evil.example", appID: "https://evil.example" },
      undefined,
      { code: 1403, reason: "untrusted_facet" },
    ],
    [
      "a FacetID that is not the AppID (empty AppID)",
      { facetId: "https://evil.example" },
      undefined,
      { code: 1403, reason: "app_id_mismatch" },
    ],
    [
      "another AppID in fcParams",
      { appID: "https://evil.example/facets" },
      undefined,
      { code: 1403, reason: "app_id_mismatch" },
    ],
    [
      "another AppID in the header",
      { header: { appID: "https://evil.example/facets" } },
      undefined,
      { code: 1498, reason: "app_id_mismatch" },
    ],
    ["a tampered serverData", {}, tamperServerData, { code: 1491, reason: "server_data_mismatch" }],
    [
      "a forged serverData",
      { header: { serverData: "v1.e30.AAAA" } },
      undefined,
      { code: 1491, reason: "server_data_mismatch" },
    ],
    [
      "an unsupported protocol version",
      { header: { upv: { major: 1, minor: 2 } } },
      undefined,
      { code: 1498, reason: "unsupported_version" },
    ],
    ["a response that is not JSON", {}, () => "[{not json", { code: 1498, reason: "malformed_message" }],
    [
      "a JSON object instead of the message array",
      {},
      () => JSON.stringify({ header: {} }),
      { code: 1498, reason: "malformed_message" },
    ],
    [
      "fcParams that are not base64",
      {},
      setField("fcParams", "**not base64**"),
      { code: 1498, reason: "malformed_fc_params" },
    ],
    [
      "fcParams that are base64 of something other than JSON",
      {},
      setField("fcParams", toBase64Url(Buffer.from("hello"))),
      { code: 1498, reason: "malformed_fc_params" },
    ],
    [
      "an assertion that is not base64",
      {},
      editAssertion(() => "@@@"),
      { code: 1498, reason: "malformed_assertion" },
    ],
    [
      "a truncated TLV assertion",
      {},
      editAssertion((bytes) => bytes.subarray(0, bytes.length - 3)),
      { code: 1498, reason: "malformed_assertion" },
    ],
    [
      "stray bytes after the TLV assertion",
      {},
      editAssertion((bytes) => Buffer.concat([bytes, Buffer.from([1, 2, 3, 4])])),
      { code: 1498, reason: "malformed_assertion" },
    ],
    [
      "a TLV length that overruns its parent",
      {},
      editAssertion((bytes) => {
        const copy = Buffer.from(bytes);
        copy.writeUInt16LE(copy.readUInt16LE(6) + 40, 6); // the inner KRD / SignedData length
        return copy;
      }),
      { code: 1498, reason: "malformed_assertion" },
    ],
    [
      "no UAFV1TLV assertion",
      {},
      (uafResponse) =>
        editResponse(uafResponse, (entry) => {
          (entry.assertions as { assertionScheme: string }[])[0]!.assertionScheme = "OTHER";
        }),
      { code: 1498, reason: "no_assertion" },
    ],
  ];
}

/** The request reads FAILED with exactly this error, on the PUT's answer and on a later GET. */
async function expectFailed(
  t: UafTestTenant,
  answered: RequestBody,
  error: { code: number; reason: string },
): Promise<void> {
  expect(answered.status).toBe("FAILED");
  expect(answered.error).toEqual(error);
  expect(answered.deviceID).toBe("");
  const read = (await (await t.api("GET", `/v1/uaf/requests/${answered.id}`)).json()) as RequestBody;
  expect(read).toMatchObject({ status: "FAILED", error, deviceID: "" });
  const row = await storedRequest(answered.id);
  expect(row).toMatchObject({ status: "FAILED", errorCode: error.code, errorReason: error.reason });
}

async function expectAuditedFailure(
  t: UafTestTenant,
  type: string,
  requestId: string,
  error: { code: number; reason: string },
): Promise<void> {
  const events = (await auditEventsOf(t.tenant.id, type)).filter(
    (event) => (event.details as { requestId?: string }).requestId === requestId,
  );
  expect(events).toHaveLength(1);
  expect(events[0]!.details).toMatchObject({ requestId, ...error });
}

describe("REG responses that fail a check of fido-uaf.md §4", () => {
  let t: UafTestTenant;
  beforeAll(async () => {
    t = await setupUafTenant();
  });

  const cases: [string, AuthenticateOptions, Edit | undefined, { code: number; reason: string }][] = [
    ...commonCases(),
    [
      "a tampered attestation signature",
      { tamperSignature: true },
      undefined,
      { code: 1496, reason: "attestation_signature_invalid" },
    ],
    [
      "an AUTH response (wrong operation)",
      { header: { op: "Auth" } },
      undefined,
      { code: 1498, reason: "wrong_operation" },
    ],
  ];

  it.each(cases)("refuses %s and stores nothing", async (_name, overrides, edit, error) => {
    const userId = `reg-${randomBytes(4).toString("hex")}`;
    const reg = await createUafRequest(t, { operation: "REG", userId });
    const before = await storedRegistrations(t.tenant.id);
    const response = t.phone.register(reg.request, overrides);
    const failed = await validateUafRequest(t, reg.id, edit ? edit(response) : response, {
      keyName: "should not be stored",
    });
    await expectFailed(t, failed, error);
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
    await expectAuditedFailure(t, "authenticator.registration.failed", reg.id, error);

    // FAILED is final: the right answer afterwards changes nothing.
    const retried = await validateUafRequest(t, reg.id, t.phone.register(reg.request));
    expect(retried).toEqual(failed);
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
    const devices = await t.api("GET", `/mgmt/v1/registrations/${userId}`);
    expect(await devices.json()).toEqual([]);
  });
});

describe("AUTH responses that fail a check of fido-uaf.md §4", () => {
  let t: UafTestTenant;
  const userId = "auth-user";
  let deviceId: string;
  beforeAll(async () => {
    t = await setupUafTenant();
    deviceId = await registerDevice(t, userId);
    // One good authentication, so that the stored counter is 1 (counter regression needs one).
    const auth = await createUafRequest(t, { operation: "AUTH", userId });
    expect(await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request))).toMatchObject({
      status: "OK",
      deviceID: deviceId,
    });
  });

  const cases: [string, AuthenticateOptions, Edit | undefined, { code: number; reason: string }][] = [
    ...commonCases(),
    [
      "a tampered signature",
      { tamperSignature: true },
      undefined,
      { code: 1498, reason: "signature_invalid" },
    ],
    [
      "a REG response (wrong operation)",
      { header: { op: "Reg" } },
      undefined,
      { code: 1498, reason: "wrong_operation" },
    ],
    [
      "a sign counter lower than the stored one",
      { signCounter: 0 },
      undefined,
      { code: 1493, reason: "counter_regression" },
    ],
    [
      "a sign counter equal to the stored one",
      { signCounter: 1 },
      undefined,
      { code: 1493, reason: "counter_regression" },
    ],
    [
      "an authenticator nonce under 8 bytes",
      { nonceLength: 4 },
      undefined,
      { code: 1498, reason: "nonce_too_short" },
    ],
    [
      "another AAID claimed in the assertion",
      { aaid: "FFFF#0001", ignorePolicy: true },
      undefined,
      { code: 1481, reason: "unknown_key_id" },
    ],
  ];

  it.each(cases)("refuses %s and moves no counter", async (_name, overrides, edit, error) => {
    const auth = await createUafRequest(t, { operation: "AUTH", userId });
    const before = await storedRegistrations(t.tenant.id);
    const response = t.phone.authenticate(auth.request, overrides);
    const failed = await validateUafRequest(t, auth.id, edit ? edit(response) : response);
    await expectFailed(t, failed, error);
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
    await expectAuditedFailure(t, "authenticator.authentication.failed", auth.id, error);

    const retried = await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request));
    expect(retried).toEqual(failed);
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });

  describe("with a transaction", () => {
    const TEXT = "Pay 10 EUR to Bob?";
    const transactionCases: [string, AuthenticateOptions, { code: number; reason: string }][] = [
      [
        "an unconfirmed transaction (mode 1, no content hash)",
        { skipTransaction: true },
        { code: 1498, reason: "transaction_not_confirmed" },
      ],
      [
        "another confirmed text",
        { transactionText: "Pay 10000 EUR to Mallory?" },
        { code: 1498, reason: "transaction_mismatch" },
      ],
    ];

    it.each(transactionCases)("refuses %s", async (_name, overrides, error) => {
      const auth = await createUafRequest(t, { operation: "AUTH", userId, transaction: TEXT });
      expect(auth.transaction).toBe(TEXT);
      const before = await storedRegistrations(t.tenant.id);
      const failed = await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request, overrides));
      await expectFailed(t, failed, error);
      expect(failed.transaction).toBe(TEXT);
      expect(await storedRegistrations(t.tenant.id)).toEqual(before);
      await expectAuditedFailure(t, "authenticator.authentication.failed", auth.id, error);
    });

    it("refuses a confirmed transaction on a request that has none (mode 2 where 1 is due)", async () => {
      const plain = await createUafRequest(t, { operation: "AUTH", userId });
      // The phone is shown the plain request with a transaction added: it confirms it (mode 2 and a
      // content hash) but answers with the plain request's header, challenge and serverData.
      const [message] = JSON.parse(plain.request) as Record<string, unknown>[];
      message!.transaction = [{ contentType: "text/plain", content: toBase64Url(Buffer.from(TEXT)) }];
      const before = await storedRegistrations(t.tenant.id);
      const failed = await validateUafRequest(t, plain.id, t.phone.authenticate(JSON.stringify([message])));
      await expectFailed(t, failed, { code: 1498, reason: "wrong_authentication_mode" });
      expect(await storedRegistrations(t.tenant.id)).toEqual(before);
    });
  });

  it("accepts the untouched response afterwards (the cases above consumed nothing else)", async () => {
    const auth = await createUafRequest(t, { operation: "AUTH", userId });
    const [before] = await storedRegistrations(t.tenant.id);
    const ok = await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request));
    expect(ok).toMatchObject({ status: "OK", deviceID: deviceId });
    const [after] = await storedRegistrations(t.tenant.id);
    expect(after!.signCounter).toBeGreaterThan(before!.signCounter);
  });

  it("refuses a key that is not registered for the user with 1481 unknown_key_id", async () => {
    const stranger = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID });
    // The stranger registers at another tenant, so it holds a key for the same (empty) AppID.
    const other = await setupUafTenant();
    await registerDevice(other, "someone", { phone: stranger });
    const auth = await createUafRequest(t, { operation: "AUTH", userId });
    const before = await storedRegistrations(t.tenant.id);
    const failed = await validateUafRequest(
      t,
      auth.id,
      stranger.authenticate(auth.request, { ignorePolicy: true }),
    );
    await expectFailed(t, failed, { code: 1481, reason: "unknown_key_id" });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });
});

describe("a tenant with an https AppID (a Trusted Facets list) and its own FacetIDs", () => {
  const APP_ID = "https://rp.example/uaf/facets";
  const APP_FACET = "android:apk-key-hash:yu23F6N010hHZyCnZMZeEQDfsi7h_rajhISuFazzbdc";

  it("accepts a listed FacetID and refuses the web origin once facetIds are set (1403 untrusted_facet)", async () => {
    const t = await setupUafTenant({ uaf: { appId: APP_ID, facetIds: [APP_FACET] } }, { facetId: APP_FACET });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-facet" });
    expect(JSON.parse(reg.request)[0].header.appID).toBe(APP_ID);
    const ok = await validateUafRequest(t, reg.id, t.phone.register(reg.request));
    expect(ok.status).toBe("OK");
    const [stored] = await storedRegistrations(t.tenant.id);
    expect(stored).toMatchObject({ facetId: APP_FACET, appId: APP_ID });

    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-facet" });
    const failed = await validateUafRequest(
      t,
      auth.id,
      t.phone.authenticate(auth.request, { facetId: UAF_FACET_ID }),
    );
    await expectFailed(t, failed, { code: 1403, reason: "untrusted_facet" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([stored]);
  });
});
