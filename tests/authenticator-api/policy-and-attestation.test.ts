import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  AlgKey,
  AlgSign,
  DEFAULT_SOFTWARE_AAID,
  SoftwareAuthenticatorError,
  SoftwareUafAuthenticator,
  Tag,
  createTestAttestationCa,
  encodeFinalChallengeParams,
  encodeTlv,
  exportPublicKey,
  finalChallengeHash,
  parseUafRequest,
  serializeUafMessage,
  signData,
  toBase64Url,
  uint16le,
  uint32le,
  type Policy,
  type RegistrationRequest,
} from "@/lib/ceremonies/uaf";
import { updateTenant } from "@/lib/tenants";
import {
  UAF_FACET_ID,
  createUafRequest,
  expectAuthenticatorError,
  registerDevice,
  setupUafTenant,
  storedRegistrations,
  uafState,
  validateUafRequest,
  type RequestBody,
  type UafTestTenant,
} from "../helpers/authenticator-api";

/** Policy, attestation and key identity: who may register and authenticate at all. */

function policyOf(request: RequestBody): Policy {
  return (parseUafRequest(request.request) as { policy: Policy }).policy;
}

function expectFailedWith(request: RequestBody, error: { code: number; reason: string }): void {
  expect(request.status).toBe("FAILED");
  expect(request.error).toEqual(error);
  expect(request.deviceID).toBe("");
}

/** A REG response signed by a key the test chooses (the software authenticator always makes a new one). */
function registrationWithKey(
  requestText: string,
  key: { keyId: Buffer; privateKey: KeyObject; publicKey: KeyObject },
): string {
  const request = parseUafRequest(requestText) as RegistrationRequest;
  const fcParams = encodeFinalChallengeParams({
    appID: request.header.appID || UAF_FACET_ID,
    challenge: request.challenge,
    facetID: UAF_FACET_ID,
    channelBinding: {},
  });
  const krd = encodeTlv(
    Tag.UAFV1_KRD,
    encodeTlv(Tag.AAID, Buffer.from(DEFAULT_SOFTWARE_AAID, "latin1")),
    encodeTlv(
      Tag.ASSERTION_INFO,
      uint16le(0x0100),
      Buffer.from([1]),
      uint16le(AlgSign.SECP256R1_ECDSA_SHA256_RAW),
      uint16le(AlgKey.ECC_X962_RAW),
    ),
    encodeTlv(Tag.FINAL_CHALLENGE_HASH, finalChallengeHash(fcParams)),
    encodeTlv(Tag.KEYID, key.keyId),
    encodeTlv(Tag.COUNTERS, uint32le(0), uint32le(1)),
    encodeTlv(Tag.PUB_KEY, exportPublicKey(key.publicKey, AlgKey.ECC_X962_RAW)),
  );
  const signature = signData(AlgSign.SECP256R1_ECDSA_SHA256_RAW, krd, key.privateKey);
  const assertion = encodeTlv(
    Tag.UAFV1_REG_ASSERTION,
    krd,
    encodeTlv(Tag.ATTESTATION_BASIC_SURROGATE, encodeTlv(Tag.SIGNATURE, signature)),
  );
  return serializeUafMessage({
    header: request.header,
    fcParams,
    assertions: [{ assertionScheme: "UAFV1TLV", assertion: toBase64Url(assertion) }],
  });
}

describe("the tenant's AAID policy", () => {
  it("refuses an AAID the tenant does not accept (uaf.acceptedAaids) with 1492 policy_not_satisfied", async () => {
    const t = await setupUafTenant({ uaf: { acceptedAaids: ["ABCD#0001"] } });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-strict" });
    expect(policyOf(reg).accepted).toEqual([[{ aaid: ["ABCD#0001"] }]]);
    // A well-behaved client does not even answer…
    expect(() => t.phone.register(reg.request)).toThrow(SoftwareAuthenticatorError);
    // …and one that answers anyway is refused.
    const failed = await validateUafRequest(t, reg.id, t.phone.register(reg.request, { ignorePolicy: true }));
    expectFailedWith(failed, { code: 1492, reason: "policy_not_satisfied" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("refuses the FIDO test vendor (FFFF) unless the tenant allows test authenticators", async () => {
    const t = await setupUafTenant({ uaf: { allowTestAuthenticators: false } });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-prod" });
    expect(policyOf(reg).disallowed).toEqual([expect.objectContaining({ vendorID: ["FFFF"] })]);
    expect(() => t.phone.register(reg.request)).toThrow(SoftwareAuthenticatorError);
    const failed = await validateUafRequest(t, reg.id, t.phone.register(reg.request, { ignorePolicy: true }));
    expectFailedWith(failed, { code: 1492, reason: "disallowed_authenticator" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("refuses AUTH by a test authenticator registered before the tenant stopped allowing them", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    await updateTenant(t.tenant.id, { uaf: { allowTestAuthenticators: false } });
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    const before = await storedRegistrations(t.tenant.id);
    const failed = await validateUafRequest(
      t,
      auth.id,
      t.phone.authenticate(auth.request, { ignorePolicy: true }),
    );
    expectFailedWith(failed, { code: 1492, reason: "disallowed_authenticator" });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });
});

describe("attestation", () => {
  it('refuses surrogate attestation when the request asks for "direct" (1496 attestation_not_accepted)', async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, {
      operation: "REG",
      userId: "u-direct",
      attestationConveyancePreference: "direct",
    });
    const failed = await validateUafRequest(t, reg.id, t.phone.register(reg.request));
    expectFailedWith(failed, { code: 1496, reason: "attestation_not_accepted" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("refuses surrogate attestation when the tenant does not allow it", async () => {
    const t = await setupUafTenant({ uaf: { allowSurrogate: false } });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-nosurrogate" });
    const failed = await validateUafRequest(t, reg.id, t.phone.register(reg.request));
    expectFailedWith(failed, { code: 1496, reason: "attestation_not_accepted" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("accepts basic full attestation under a root in uaf.trustedRoots, also for direct", async () => {
    const phone = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID, attestation: "basic_full" });
    const t = await setupUafTenant({ uaf: { trustedRoots: [phone.attestationRootPem!] } });
    const reg = await createUafRequest(t, {
      operation: "REG",
      userId: "u-full",
      attestationConveyancePreference: "direct",
    });
    const ok = await validateUafRequest(t, reg.id, phone.register(reg.request));
    expect(ok).toMatchObject({ status: "OK" });
    const [stored] = await storedRegistrations(t.tenant.id);
    expect(stored).toMatchObject({
      id: ok.deviceID,
      attestationType: "basic_full",
      aaid: DEFAULT_SOFTWARE_AAID,
    });
    expect(stored!.attestationCertificates).toHaveLength(1);

    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-full" });
    expect(await validateUafRequest(t, auth.id, phone.authenticate(auth.request))).toMatchObject({
      status: "OK",
      deviceID: ok.deviceID,
    });
  });

  it("refuses basic full attestation without a trusted root (1480 unknown_aaid)", async () => {
    const phone = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID, attestation: "basic_full" });
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-full" });
    const failed = await validateUafRequest(t, reg.id, phone.register(reg.request));
    expectFailedWith(failed, { code: 1480, reason: "unknown_aaid" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("refuses basic full attestation under another root (1496 attestation_untrusted)", async () => {
    const phone = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID, attestation: "basic_full" });
    const now = Date.now();
    const otherRoot = createTestAttestationCa({
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 86_400_000),
    }).root.pem;
    const t = await setupUafTenant({ uaf: { trustedRoots: [otherRoot] } });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-full" });
    const failed = await validateUafRequest(t, reg.id, phone.register(reg.request));
    expectFailedWith(failed, { code: 1496, reason: "attestation_untrusted" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("refuses a tampered basic full attestation signature (1496 attestation_signature_invalid)", async () => {
    const phone = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID, attestation: "basic_full" });
    const t = await setupUafTenant({ uaf: { trustedRoots: [phone.attestationRootPem!] } });
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-full" });
    const failed = await validateUafRequest(
      t,
      reg.id,
      phone.register(reg.request, { tamperSignature: true }),
    );
    expectFailedWith(failed, { code: 1496, reason: "attestation_signature_invalid" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });
});

describe("one key, registered twice", () => {
  async function setup() {
    const t = await setupUafTenant();
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const key = { keyId: randomBytes(32), privateKey, publicKey };
    const first = await createUafRequest(t, { operation: "REG", userId: "u-first" });
    const ok = await validateUafRequest(t, first.id, registrationWithKey(first.request, key));
    expect(ok.status).toBe("OK");
    return { t, key, deviceId: ok.deviceID };
  }

  it("refuses the key for another user of the tenant (1492 key_already_registered)", async () => {
    const { t, key, deviceId } = await setup();
    const second = await createUafRequest(t, { operation: "REG", userId: "u-second" });
    const before = await storedRegistrations(t.tenant.id);
    const failed = await validateUafRequest(t, second.id, registrationWithKey(second.request, key));
    expectFailedWith(failed, { code: 1492, reason: "key_already_registered" });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
    expect(before.map((row) => row.id)).toEqual([deviceId]);
    expect(await (await t.api("GET", "/mgmt/v1/registrations/u-second")).json()).toEqual([]);
  });

  it("refuses the key again for the same user: the REG policy disallows it (1492 disallowed_authenticator)", async () => {
    const { t, key } = await setup();
    const again = await createUafRequest(t, { operation: "REG", userId: "u-first" });
    expect(policyOf(again).disallowed).toEqual([
      { aaid: [DEFAULT_SOFTWARE_AAID], keyIDs: [toBase64Url(key.keyId)] },
    ]);
    const before = await storedRegistrations(t.tenant.id);
    const failed = await validateUafRequest(t, again.id, registrationWithKey(again.request, key));
    expectFailedWith(failed, { code: 1492, reason: "disallowed_authenticator" });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });

  it("accepts the same key at another tenant (keys are unique per tenant)", async () => {
    const { key } = await setup();
    const other = await setupUafTenant();
    const reg = await createUafRequest(other, { operation: "REG", userId: "u-first" });
    expect(await validateUafRequest(other, reg.id, registrationWithKey(reg.request, key))).toMatchObject({
      status: "OK",
    });
  });
});

describe("deviceIds", () => {
  async function twoPhones(): Promise<{
    t: UafTestTenant;
    phone2: SoftwareUafAuthenticator;
    d1: string;
    d2: string;
  }> {
    const t = await setupUafTenant();
    const phone2 = SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID });
    const d1 = await registerDevice(t, "u-1", { keyName: "phone 1" });
    const d2 = await registerDevice(t, "u-1", { phone: phone2, keyName: "phone 2" });
    return { t, phone2, d1, d2 };
  }

  it("narrow AUTH to the named registrations: another key of the user is 1481 unknown_key_id", async () => {
    const { t, phone2, d1 } = await twoPhones();
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1", deviceIds: [d1] });
    expect(policyOf(auth).accepted).toHaveLength(1);
    expect(() => phone2.authenticate(auth.request)).toThrow(SoftwareAuthenticatorError);
    const before = await storedRegistrations(t.tenant.id);
    const failed = await validateUafRequest(
      t,
      auth.id,
      phone2.authenticate(auth.request, { ignorePolicy: true }),
    );
    expectFailedWith(failed, { code: 1481, reason: "unknown_key_id" });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);

    const next = await createUafRequest(t, { operation: "AUTH", userId: "u-1", deviceIds: [d1] });
    expect(await validateUafRequest(t, next.id, t.phone.authenticate(next.request))).toMatchObject({
      status: "OK",
      deviceID: d1,
      device: { deviceId: d1, keyName: "phone 1" },
    });
  });

  it("without deviceIds every registration of the user may answer", async () => {
    const { t, phone2, d2 } = await twoPhones();
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    expect(policyOf(auth).accepted).toHaveLength(2);
    expect(await validateUafRequest(t, auth.id, phone2.authenticate(auth.request))).toMatchObject({
      status: "OK",
      deviceID: d2,
    });
  });

  it("refuses a registration deleted after the request was made (1481 unknown_key_id)", async () => {
    const { t, phone2, d2 } = await twoPhones();
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    expect((await t.api("DELETE", `/mgmt/v1/registrations/u-1/${d2}`)).status).toBe(204);
    const failed = await validateUafRequest(t, auth.id, phone2.authenticate(auth.request));
    expectFailedWith(failed, { code: 1481, reason: "unknown_key_id" });
  });

  it("refuse unknown ids and another user's devices at creation (404), creating nothing", async () => {
    const { t, d1 } = await twoPhones();
    const d3 = await registerDevice(t, "u-3", {
      phone: SoftwareUafAuthenticator.create({ facetId: UAF_FACET_ID }),
    });
    const before = await uafState(t.tenant.id);
    for (const deviceIds of [[d3], [d1, d3], ["00000000-0000-4000-8000-000000000000"]]) {
      for (const operation of ["AUTH", "DEREG"]) {
        const res = await t.api("POST", "/v1/uaf/requests", { operation, userId: "u-1", deviceIds });
        await expectAuthenticatorError(res, 404, "device not found");
      }
    }
    expect(await uafState(t.tenant.id)).toEqual(before);
  });

  it("narrow DEREG to the named registrations", async () => {
    const { t, d1, d2 } = await twoPhones();
    const dereg = await createUafRequest(t, { operation: "DEREG", userId: "u-1", deviceIds: [d2] });
    expect(dereg.status).toBe("OK");
    const [message] = JSON.parse(dereg.request) as { authenticators: { aaid: string; keyID: string }[] }[];
    expect(message!.authenticators).toHaveLength(1);
    const devices = (await (await t.api("GET", "/mgmt/v1/registrations/u-1")).json()) as {
      deviceId: string;
    }[];
    expect(devices.map((device) => device.deviceId)).toEqual([d1]);
  });
});
