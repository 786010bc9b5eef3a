import { describe, expect, it } from "vitest";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import {
  AuthenticatorFlags,
  WebAuthnSoftwareAuthenticator,
  type AssertionOverrides,
  type RegistrationOverrides,
} from "./webauthn-software-authenticator";

const ORIGIN = "http://localhost:3000";
const RP_ID = "localhost";

function registrationOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: "Sesame test",
    rpID: RP_ID,
    userName: "alice@example.com",
    attestationType: "direct",
  });
}

function verifyRegistration(response: RegistrationResponseJSON, expectedChallenge: string) {
  return verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
}

function verifyAssertion(
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: WebAuthnCredential,
) {
  return verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential,
    requireUserVerification: true,
  });
}

/** Registers one credential and returns what a relying party would have stored for it. */
async function enrolled(authenticator = new WebAuthnSoftwareAuthenticator()) {
  const options = await registrationOptions();
  const response = await authenticator.register(options, { origin: ORIGIN });
  const verification = await verifyRegistration(response, options.challenge);
  if (!verification.verified) throw new Error("registration did not verify");
  return { authenticator, options, credential: verification.registrationInfo.credential };
}

/** A rejected response either throws or comes back with `verified: false`. */
async function expectRejected(verification: Promise<{ verified: boolean }>): Promise<void> {
  const outcome = await verification.then(
    (result) => result.verified,
    () => false,
  );
  expect(outcome).toBe(false);
}

describe("WebAuthnSoftwareAuthenticator registration", () => {
  it("produces a `none` attestation that verifies", async () => {
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const options = await registrationOptions();
    const response = await authenticator.register(options, { origin: ORIGIN });

    expect(response).toMatchObject({
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: { transports: ["internal"] },
    });
    expect(response.id).toBe(response.rawId);
    expect(response.id).not.toMatch(/[=+/]/);

    const verification = await verifyRegistration(response, options.challenge);
    expect(verification.verified).toBe(true);
    expect(verification.registrationInfo).toMatchObject({
      fmt: "none",
      aaguid: "00000000-0000-0000-0000-000000000000",
      userVerified: true,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      origin: ORIGIN,
      rpID: RP_ID,
      credential: { id: response.id, counter: 0 },
    });
    expect(authenticator.credential(response.id)?.rpId).toBe(RP_ID);
    expect(authenticator.credentials).toHaveLength(1);
  });

  it("produces a packed self attestation that verifies", async () => {
    const aaguid = "01234567-89ab-cdef-0123-456789abcdef";
    const authenticator = new WebAuthnSoftwareAuthenticator({
      aaguid,
      signCount: 7,
      backupEligible: true,
      backupState: true,
    });
    const options = await registrationOptions();
    const response = await authenticator.register(options, { origin: ORIGIN, fmt: "packed" });

    const verification = await verifyRegistration(response, options.challenge);
    expect(verification.verified).toBe(true);
    expect(verification.registrationInfo).toMatchObject({
      fmt: "packed",
      aaguid,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      credential: { id: response.id, counter: 7 },
    });
  });

  it("creates a fresh key and credential id on every call", async () => {
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const options = await registrationOptions();
    const a = await authenticator.register(options, { origin: ORIGIN });
    const b = await authenticator.register(options, { origin: ORIGIN });
    expect(a.id).not.toBe(b.id);
    expect(authenticator.credentials.map((c) => c.id)).toEqual([a.id, b.id]);
    const [first, second] = authenticator.credentials;
    expect(Buffer.from(first!.publicKey).equals(Buffer.from(second!.publicKey))).toBe(false);
    const idLength = Buffer.from(a.id, "base64url").length;
    expect(idLength).toBeGreaterThanOrEqual(16);
    expect(idLength).toBeLessThanOrEqual(32);
  });

  const rejected: [string, RegistrationOverrides, "none" | "packed"][] = [
    ["wrong clientData type", { type: "webauthn.get" }, "none"],
    ["wrong origin", { origin: "https://evil.example" }, "none"],
    ["wrong challenge", { challenge: "c29tZXRoaW5nLWVsc2U" }, "none"],
    ["wrong rpIdHash", { rpIdHashOf: "evil.example" }, "none"],
    ["UP cleared", { flags: AuthenticatorFlags.UV | AuthenticatorFlags.AT }, "none"],
    ["UV cleared", { flags: AuthenticatorFlags.UP | AuthenticatorFlags.AT }, "none"],
    ["tampered packed signature", { tamperSignature: true }, "packed"],
    ["trailing authData bytes", { extraAuthDataBytes: Uint8Array.of(1, 2, 3) }, "none"],
    ["non-empty attStmt for none", { attStmt: { alg: -7 } }, "none"],
    ["unknown fmt", { fmt: "bogus" }, "none"],
    ["garbage clientDataJSON", { clientDataJSON: "{}" }, "none"],
  ];

  it.each(rejected)("is rejected with %s", async (_name, overrides, fmt) => {
    const options = await registrationOptions();
    const response = await new WebAuthnSoftwareAuthenticator().register(options, {
      origin: ORIGIN,
      fmt,
      overrides,
    });
    await expectRejected(verifyRegistration(response, options.challenge));
  });
});

describe("WebAuthnSoftwareAuthenticator assertion", () => {
  it("verifies against the stored public key and advances the counter", async () => {
    const { authenticator, options: regOptions, credential } = await enrolled();

    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      allowCredentials: [{ id: credential.id }],
      userVerification: "required",
    });
    const response = await authenticator.login(options, { origin: ORIGIN });
    expect(response.id).toBe(credential.id);
    expect(response.response.userHandle).toBe(regOptions.user.id);

    const first = await verifyAssertion(response, options.challenge, credential);
    expect(first.verified).toBe(true);
    expect(first.authenticationInfo).toMatchObject({
      credentialID: credential.id,
      newCounter: 1,
      userVerified: true,
      origin: ORIGIN,
      rpID: RP_ID,
    });

    const again = await generateAuthenticationOptions({ rpID: RP_ID });
    const second = await verifyAssertion(
      await authenticator.login(again, { origin: ORIGIN }),
      again.challenge,
      { ...credential, counter: first.authenticationInfo.newCounter },
    );
    expect(second.verified).toBe(true);
    expect(second.authenticationInfo.newCounter).toBe(2);
    expect(authenticator.credential(credential.id)?.signCount).toBe(2);
  });

  it("keeps the counter at 0 with counterStep 0", async () => {
    const { authenticator, credential } = await enrolled(
      new WebAuthnSoftwareAuthenticator({ counterStep: 0 }),
    );
    for (let i = 0; i < 2; i++) {
      const options = await generateAuthenticationOptions({ rpID: RP_ID });
      const result = await verifyAssertion(
        await authenticator.login(options, { origin: ORIGIN }),
        options.challenge,
        credential,
      );
      expect(result.verified).toBe(true);
      expect(result.authenticationInfo.newCounter).toBe(0);
    }
  });

  it("picks the first allowed credential it holds, else the latest", async () => {
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const options = await registrationOptions();
    const a = await authenticator.register(options, { origin: ORIGIN });
    const b = await authenticator.register(options, { origin: ORIGIN });
    const login = (allow?: string[]) =>
      authenticator.login(
        { challenge: "AAAA", rpId: RP_ID, allowCredentials: allow?.map((id) => ({ id })) },
        { origin: ORIGIN },
      );
    expect((await login(["unknown", a.id, b.id])).id).toBe(a.id);
    expect((await login()).id).toBe(b.id);
    expect((await login(["unknown"])).id).toBe(b.id);
    const chosen = await authenticator.login(
      { challenge: "AAAA" },
      { origin: ORIGIN, credentialId: a.id, overrides: { userHandle: null } },
    );
    expect(chosen.id).toBe(a.id);
    expect(chosen.response.userHandle).toBeUndefined();
    await expect(
      authenticator.login({ challenge: "AAAA" }, { origin: ORIGIN, credentialId: "nope" }),
    ).rejects.toThrow();
  });

  // [name, overrides, counter the relying party has stored]
  const rejected: [string, AssertionOverrides, number?][] = [
    ["wrong clientData type", { type: "webauthn.create" }],
    ["wrong origin", { origin: "https://evil.example" }],
    ["wrong challenge", { challenge: "c29tZXRoaW5nLWVsc2U" }],
    ["wrong rpIdHash", { rpIdHashOf: "evil.example" }],
    ["UP cleared", { flags: AuthenticatorFlags.UV }],
    ["UV cleared", { flags: AuthenticatorFlags.UP }],
    ["tampered signature", { tamperSignature: true }],
    ["BS without BE", { flags: AuthenticatorFlags.UP | AuthenticatorFlags.UV | AuthenticatorFlags.BS }],
    ["counter not above the stored one", { signCount: 5 }, 5],
  ];

  it.each(rejected)("is rejected with %s", async (_name, overrides, storedCounter = 0) => {
    const { authenticator, credential } = await enrolled();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    const response = await authenticator.login(options, { origin: ORIGIN, overrides });
    await expectRejected(
      verifyAssertion(response, options.challenge, { ...credential, counter: storedCounter }),
    );
  });

  it("sends an explicit signCount without moving the stored counter", async () => {
    const { authenticator, credential } = await enrolled();
    const options = await generateAuthenticationOptions({ rpID: RP_ID });
    const response = await authenticator.login(options, { origin: ORIGIN, overrides: { signCount: 42 } });
    const result = await verifyAssertion(response, options.challenge, credential);
    expect(result.authenticationInfo.newCounter).toBe(42);
    expect(authenticator.credential(credential.id)?.signCount).toBe(0);
  });
});
