import { randomBytes } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { describe, expect, it } from "vitest";
import { passkeyRequest } from "@/tests/helpers/passkey-api";
import { ORIGIN, registerPasskey, startLogin } from "@/tests/helpers/passkey-ceremonies";
import {
  attest,
  auditEvents,
  expectPasskeyError,
  expireChallenges,
  initRegistration,
  listedCredentialIds,
  newUserId,
  postRegistration,
  setupTenant,
  storedCredential,
  tenantState,
} from "@/tests/helpers/passkey-security";
import {
  AuthenticatorFlags as F,
  WebAuthnSoftwareAuthenticator,
  b64url,
  fromB64url,
  type RegistrationOverrides,
} from "@/tests/helpers/webauthn-software-authenticator";
import { expectFailureDetails } from "@/tests/helpers/audit";

const INVALID = "failed to validate attestation";
const NO_SESSION = "received challenge does not match with any stored one";
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** Asserts that the tenant has no credential at all and the user lists none through the API. */
async function expectNoCredential(t: Awaited<ReturnType<typeof setupTenant>>, userId: string) {
  expect(await listedCredentialIds(t.ctx, userId)).toEqual([]);
  expect((await tenantState(t.tenant.id)).credentials).toEqual([]);
  expect(await auditEvents(t.tenant.id, "passkey.registration.finalize.succeeded")).toEqual([]);
}

describe("Passkey registration finalize refuses bad attestations (WebAuthn §7.1)", () => {
  const cases: [string, RegistrationOverrides, "none" | "packed", RegExp][] = [
    ["clientData type webauthn.get (R7)", { type: "webauthn.get" }, "none", /registration response type/],
    ["an empty clientData type (R7)", { type: "" }, "none", /registration response type/],
    ["an unrelated origin (R9)", { origin: "https://evil.example" }, "none", /origin/],
    ["the tenant's host on another port (R9)", { origin: "http://localhost:3001" }, "none", /origin/],
    ["the tenant's origin with https (R9)", { origin: "https://localhost:3000" }, "none", /origin/],
    ["a subdomain of the tenant's origin (R9)", { origin: "http://sub.localhost:3000" }, "none", /origin/],
    ["crossOrigin true (R10)", { crossOrigin: true }, "none", /cross-origin/],
    [
      "a topOrigin from an embedding page (R11)",
      { topOrigin: "https://evil.example" },
      "none",
      /cross-origin/,
    ],
    ["the RP ID hash of another RP (R14)", { rpIdHashOf: "evil.example" }, "none", /RP ID/i],
    ["UP not set (R15)", { flags: F.UV | F.AT }, "none", /User presence/],
    ["UV not set while the tenant requires it (R16)", { flags: F.UP | F.AT }, "none", /User verification/],
    ["BS set without BE (R17)", { flags: F.UP | F.UV | F.AT | F.BS }, "none", /backed up/],
    [
      "leftover bytes after the authenticator data",
      { extraAuthDataBytes: Uint8Array.of(1, 2, 3) },
      "none",
      /Leftover bytes/,
    ],
    ["fmt spelled 'Packed' (R21)", { fmt: "Packed" }, "packed", /Unsupported Attestation Format/],
    ["an unknown fmt (R21)", { fmt: "foo" }, "none", /Unsupported Attestation Format/],
    [
      "fmt none with an attestation statement (R22)",
      { attStmt: { alg: -7 } },
      "none",
      /unexpected attestation statement/,
    ],
    [
      "a packed self attestation with a bad signature (R22)",
      { tamperSignature: true },
      "packed",
      /could not be verified|signature/i,
    ],
    [
      "a packed statement with a zeroed signature (R22)",
      { attStmt: { alg: -7, sig: new Uint8Array(64) } },
      "packed",
      /./,
    ],
    ["a packed statement without sig (R22)", { attStmt: { alg: -7 } }, "packed", /sig/i],
  ];

  it.each(cases)("refuses %s with 400 and stores nothing", async (_name, overrides, fmt, detail) => {
    const t = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const before = await tenantState(t.tenant.id);
    const res = await postRegistration(t.ctx, await attest(t.authenticator, publicKey, overrides, fmt));
    await expectPasskeyError(res, 400, { title: INVALID, detail });
    await expectNoCredential(t, userId);
    expect(await tenantState(t.tenant.id)).toEqual(before);
    const [failed] = await auditEvents(t.tenant.id, "passkey.registration.finalize.failed");
    expectFailureDetails(failed?.details, { status: 400, reason: expect.any(String) });
  });

  it("refuses a clientData challenge that was never issued (R8), leaving the issued one open", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const forged = await attest(t.authenticator, publicKey, { challenge: b64url(randomBytes(32)) });
    await expectPasskeyError(await postRegistration(t.ctx, forged), 400, { title: NO_SESSION });
    await expectNoCredential(t, userId);
    expect((await postRegistration(t.ctx, await attest(t.authenticator, publicKey))).status).toBe(200);
  });

  /** Re-encodes the response's attestation object after `edit` changed its decoded map. */
  function rewrite(
    response: Awaited<ReturnType<typeof attest>>,
    edit: (object: Map<string, Parameters<typeof isoCBOR.encode>[0]>) => Uint8Array | void,
  ) {
    const object = isoCBOR.decodeFirst<Map<string, Parameters<typeof isoCBOR.encode>[0]>>(
      fromB64url(response.response.attestationObject),
    );
    const bytes = edit(object) ?? isoCBOR.encode(object);
    return { ...response, response: { ...response.response, attestationObject: b64url(bytes) } };
  }

  it("refuses a packed self attestation whose alg is not the credential key's, even with a valid signature (§8.2)", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const genuine = await attest(t.authenticator, await initRegistration(t.ctx, userId), {}, "packed");
    const relabelled = rewrite(genuine, (object) => {
      (object.get("attStmt") as Map<string, unknown>).set("alg", -257);
    });
    await expectPasskeyError(await postRegistration(t.ctx, relabelled), 400, {
      title: INVALID,
      detail: /alg/,
    });
    await expectNoCredential(t, userId);
  });

  it("refuses data after the attestation object's CBOR map (R13)", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const genuine = await attest(t.authenticator, await initRegistration(t.ctx, userId), {}, "packed");
    const trailing = rewrite(genuine, (object) => new Uint8Array([...isoCBOR.encode(object), 0x01, 0x02]));
    await expectPasskeyError(await postRegistration(t.ctx, trailing), 400, {
      title: INVALID,
      detail: "trailing data",
    });
    await expectNoCredential(t, userId);
  });

  it("burns the challenge on a failed finalize: the genuine response for it is refused afterwards", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const bad = await postRegistration(
      t.ctx,
      await attest(t.authenticator, publicKey, { origin: "https://evil.example" }),
    );
    await expectPasskeyError(bad, 400, { title: INVALID });
    const good = await postRegistration(t.ctx, await attest(t.authenticator, publicKey));
    await expectPasskeyError(good, 400, { title: NO_SESSION });
    await expectNoCredential(t, userId);
  });

  it("accepts a registration without UV when the tenant only prefers it, and stores it as not verified", async () => {
    const t = await setupTenant({ passkeyPolicy: { userVerification: "preferred" } });
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    expect(publicKey.authenticatorSelection.userVerification).toBe("preferred");
    const response = await attest(t.authenticator, publicKey, { flags: F.UP | F.AT });
    const res = await postRegistration(t.ctx, response);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await storedCredential(t.tenant.id, response.id))?.userVerified).toBe(false);
  });

  it("accepts clientDataJSON with a UTF-8 byte order mark (R5)", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const clientData = `\uFEFF${JSON.stringify({ type: "webauthn.create", challenge: publicKey.challenge, origin: ORIGIN, crossOrigin: false })}`;
    const response = await attest(t.authenticator, publicKey, { clientDataJSON: clientData });
    const res = await postRegistration(t.ctx, response);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([response.id]);
  });
});

describe("Passkey registration finalize: challenges are single-use and bound to tenant and kind", () => {
  it("refuses a replayed registration response and keeps the one credential", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const response = await attest(t.authenticator, publicKey);
    expect((await postRegistration(t.ctx, response)).status).toBe(200);
    const stored = await storedCredential(t.tenant.id, response.id);
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: NO_SESSION });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([response.id]);
    expect(await storedCredential(t.tenant.id, response.id)).toEqual(stored);
  });

  it("refuses a challenge of tenant A finalized at tenant B; A's ceremony still completes", async () => {
    const a = await setupTenant();
    const b = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(a.ctx, userId);
    const response = await attest(a.authenticator, publicKey);
    await expectPasskeyError(await postRegistration(b.ctx, response), 400, { title: NO_SESSION });
    expect((await tenantState(b.tenant.id)).credentials).toEqual([]);
    expect((await tenantState(a.tenant.id)).credentials).toEqual([]);
    expect((await postRegistration(a.ctx, response)).status).toBe(200);
    expect(await listedCredentialIds(a.ctx, userId)).toEqual([response.id]);
    expect(await listedCredentialIds(b.ctx, userId)).toEqual([]);
  });

  it("refuses a login challenge signed as a registration; the login challenge stays usable", async () => {
    const t = await setupTenant();
    const owner = newUserId();
    await registerPasskey(t.ctx, owner);
    const login = await startLogin(t.ctx);
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const response = await attest(new WebAuthnSoftwareAuthenticator(), {
      ...publicKey,
      challenge: login.challenge,
    });
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: NO_SESSION });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([]);
    const fin = await passkeyRequest(t.tenant.id, "POST", "/login/finalize", {
      body: await t.authenticator.login(login, { origin: ORIGIN }),
    });
    expect(fin.status).toBe(200);
  });

  it("keeps passkey and MFA registration challenges apart", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const mfaOptions = await initRegistration(t.ctx, userId, "mfa/registration");
    const mfaResponse = await attest(t.authenticator, mfaOptions);
    await expectPasskeyError(await postRegistration(t.ctx, mfaResponse), 400, { title: NO_SESSION });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([]);
    // The MFA challenge was not consumed by the wrong route.
    expect((await postRegistration(t.ctx, mfaResponse, "mfa/registration")).status).toBe(200);
    expect((await storedCredential(t.tenant.id, mfaResponse.id))?.isMfa).toBe(true);

    const passkeyOptions = await initRegistration(t.ctx, userId);
    const passkeyResponse = await attest(t.authenticator, passkeyOptions);
    await expectPasskeyError(await postRegistration(t.ctx, passkeyResponse, "mfa/registration"), 400, {
      title: NO_SESSION,
    });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([mfaResponse.id]);
  });

  it("refuses an expired challenge and consumes it", async () => {
    const t = await setupTenant({ challengeTtlSeconds: 10 });
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    expect(publicKey.timeout).toBe(10_000);
    const response = await attest(t.authenticator, publicKey);
    await expireChallenges(t.tenant.id);
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: "Session has Expired" });
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: NO_SESSION });
    await expectNoCredential(t, userId);
  });

  it("ignores an apiKey sent to registration/finalize, but MFA registration finalize requires one", async () => {
    const t = await setupTenant();
    const other = await setupTenant();
    const userId = newUserId();
    const publicKey = await initRegistration(t.ctx, userId);
    const res = await passkeyRequest(t.tenant.id, "POST", "/registration/finalize", {
      body: await attest(t.authenticator, publicKey),
      apiKey: other.keys.passkey,
    });
    expect(res.status, await res.clone().text()).toBe(200);

    const mfaOptions = await initRegistration(t.ctx, userId, "mfa/registration");
    const mfaResponse = await attest(t.authenticator, mfaOptions);
    const keyless = await passkeyRequest(t.tenant.id, "POST", "/mfa/registration/finalize", {
      body: mfaResponse,
    });
    await expectPasskeyError(keyless, 401);
    expect(await storedCredential(t.tenant.id, mfaResponse.id)).toBeUndefined();
    // Authentication comes before the body, so the challenge is still there for the real call.
    expect((await postRegistration(t.ctx, mfaResponse, "mfa/registration")).status).toBe(200);
  });
});

describe("Passkey registration finalize: credential ids (WebAuthn §7.1 steps 25 and 26)", () => {
  it("refuses registering the same credential again for the same user, leaving the record untouched", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const first = await attest(t.authenticator, await initRegistration(t.ctx, userId));
    expect((await postRegistration(t.ctx, first)).status).toBe(200);
    const stored = await storedCredential(t.tenant.id, first.id);

    // The same attestation object (fmt none binds no client data) answering a fresh challenge.
    const again = await initRegistration(t.ctx, userId);
    expect(again.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([first.id]);
    const replayed = {
      ...first,
      response: {
        ...first.response,
        clientDataJSON: b64(
          JSON.stringify({
            type: "webauthn.create",
            challenge: again.challenge,
            origin: ORIGIN,
            crossOrigin: false,
          }),
        ),
      },
    };
    await expectPasskeyError(await postRegistration(t.ctx, replayed), 400, {
      title: INVALID,
      detail: "already registered",
    });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([first.id]);
    expect(await storedCredential(t.tenant.id, first.id)).toEqual(stored);
  });

  it("refuses planting a victim's credential id under another user with another key", async () => {
    const t = await setupTenant();
    const victim = newUserId();
    const { credentialId } = await registerPasskey(t.ctx, victim);
    const stored = await storedCredential(t.tenant.id, credentialId);

    const attacker = newUserId();
    const options = await initRegistration(t.ctx, attacker);
    const planted = await attest(new WebAuthnSoftwareAuthenticator(), options, {
      credentialId: fromB64url(credentialId),
    });
    expect(planted.id).toBe(credentialId);
    await expectPasskeyError(await postRegistration(t.ctx, planted), 400, {
      title: INVALID,
      detail: "already registered",
    });
    expect(await listedCredentialIds(t.ctx, attacker)).toEqual([]);
    expect(await storedCredential(t.tenant.id, credentialId)).toEqual(stored);

    // The victim still logs in with the original key.
    const login = await startLogin(t.ctx, victim);
    const fin = await passkeyRequest(t.tenant.id, "POST", "/login/finalize", {
      body: await t.authenticator.login(login, { origin: ORIGIN }),
    });
    expect(fin.status).toBe(200);
  });

  it("accepts the same credential id in two tenants (ids are unique per tenant)", async () => {
    const a = await setupTenant();
    const b = await setupTenant();
    const id = new Uint8Array(randomBytes(32));
    const userId = newUserId();
    const inA = await attest(a.authenticator, await initRegistration(a.ctx, userId), { credentialId: id });
    expect((await postRegistration(a.ctx, inA)).status).toBe(200);
    const inB = await attest(b.authenticator, await initRegistration(b.ctx, userId), { credentialId: id });
    expect((await postRegistration(b.ctx, inB)).status).toBe(200);
    expect((await storedCredential(a.tenant.id, inA.id))?.publicKey).not.toBe(
      (await storedCredential(b.tenant.id, inB.id))?.publicKey,
    );
  });

  it("accepts a credential id of 1023 bytes and refuses one of 1024 bytes (R25)", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const ok = await attest(t.authenticator, await initRegistration(t.ctx, userId), {
      credentialId: new Uint8Array(randomBytes(1023)),
    });
    expect((await postRegistration(t.ctx, ok)).status).toBe(200);

    const long = await attest(t.authenticator, await initRegistration(t.ctx, userId), {
      credentialId: new Uint8Array(randomBytes(1024)),
    });
    await expectPasskeyError(await postRegistration(t.ctx, long), 400, {
      title: INVALID,
      detail: "1023 bytes",
    });
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([ok.id]);
  });

  it("refuses a 1024-byte attested credential id hidden behind a short rawId", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await attest(t.authenticator, await initRegistration(t.ctx, userId), {
      credentialId: new Uint8Array(randomBytes(1024)),
      rawId: b64url(randomBytes(16)),
    });
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: INVALID });
    await expectNoCredential(t, userId);
  });

  it("refuses a rawId that is not the attested credential id (R3, A23)", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await attest(t.authenticator, await initRegistration(t.ctx, userId), {
      rawId: b64url(randomBytes(16)),
    });
    await expectPasskeyError(await postRegistration(t.ctx, response), 400, { title: INVALID });
    await expectNoCredential(t, userId);
  });

  it("refuses an id that differs from rawId", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await attest(t.authenticator, await initRegistration(t.ctx, userId));
    const res = await postRegistration(t.ctx, { ...response, id: b64url(randomBytes(16)) });
    await expectPasskeyError(res, 400, { title: INVALID });
    await expectNoCredential(t, userId);
  });
});

describe("Passkey registration finalize: malformed responses are 400 in the Passkey error shape", () => {
  async function valid(t: Awaited<ReturnType<typeof setupTenant>>, userId: string) {
    return attest(t.authenticator, await initRegistration(t.ctx, userId));
  }
  const cbor = (value: Parameters<typeof isoCBOR.encode>[0]) => b64url(isoCBOR.encode(value));

  const attestationObjects: [string, (authData: Uint8Array) => string][] = [
    ["three zero bytes", () => "AAAA"],
    ["random bytes", () => b64url(randomBytes(64))],
    ["a truncated CBOR map", () => cbor(new Map([["fmt", "none"]])).slice(0, 6)],
    ["a CBOR array instead of a map", (authData) => cbor(["none", new Map(), authData])],
    ["a CBOR integer", () => cbor(42)],
    [
      "a map without authData",
      () =>
        cbor(
          new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
            ["fmt", "none"],
            ["attStmt", new Map()],
          ]),
        ),
    ],
    [
      "a map whose authData is empty",
      () =>
        cbor(
          new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
            ["fmt", "none"],
            ["attStmt", new Map()],
            ["authData", new Uint8Array(0)],
          ]),
        ),
    ],
    [
      "a map whose authData is a string",
      () =>
        cbor(
          new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
            ["fmt", "none"],
            ["attStmt", new Map()],
            ["authData", "x"],
          ]),
        ),
    ],
    [
      "authData with AT set but no attested credential data",
      (authData) =>
        cbor(
          new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
            ["fmt", "none"],
            ["attStmt", new Map()],
            ["authData", authData.subarray(0, 37)],
          ]),
        ),
    ],
  ];

  it.each(attestationObjects)("refuses an attestationObject that is %s", async (_name, make) => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await valid(t, userId);
    const authData = isoCBOR
      .decodeFirst<Map<string, Uint8Array>>(fromB64url(response.response.attestationObject))
      .get("authData")!;
    const res = await postRegistration(t.ctx, {
      ...response,
      response: { ...response.response, attestationObject: make(authData) },
    });
    await expectPasskeyError(res, 400);
    await expectNoCredential(t, userId);
  });

  const bodies: [string, (r: Record<string, unknown> & { response: Record<string, unknown> }) => unknown][] =
    [
      ["id missing", ({ id: _id, ...rest }) => rest],
      ["id not base64url", (r) => ({ ...r, id: "not base64url!" })],
      ["rawId empty", (r) => ({ ...r, rawId: "" })],
      ["type not public-key", (r) => ({ ...r, type: "password" })],
      ["type missing", ({ type: _type, ...rest }) => rest],
      ["response missing", ({ response: _response, ...rest }) => rest],
      ["response a string", (r) => ({ ...r, response: "x" })],
      ["clientDataJSON missing", (r) => ({ ...r, response: { ...r.response, clientDataJSON: undefined } })],
      ["clientDataJSON empty", (r) => ({ ...r, response: { ...r.response, clientDataJSON: "" } })],
      [
        "clientDataJSON not base64url",
        (r) => ({ ...r, response: { ...r.response, clientDataJSON: '{"a":1}' } }),
      ],
      ["clientDataJSON a number", (r) => ({ ...r, response: { ...r.response, clientDataJSON: 12 } })],
      [
        "clientDataJSON not JSON",
        (r) => ({ ...r, response: { ...r.response, clientDataJSON: b64("hello") } }),
      ],
      [
        "clientDataJSON without a challenge",
        (r) => ({ ...r, response: { ...r.response, clientDataJSON: b64('{"type":"webauthn.create"}') } }),
      ],
      [
        "clientDataJSON with a numeric challenge",
        (r) => ({ ...r, response: { ...r.response, clientDataJSON: b64('{"challenge":1}') } }),
      ],
      [
        "clientDataJSON of invalid UTF-8",
        (r) => ({
          ...r,
          response: { ...r.response, clientDataJSON: b64url(Uint8Array.of(0xff, 0xfe, 0xfd)) },
        }),
      ],
      [
        "attestationObject missing",
        (r) => ({ ...r, response: { ...r.response, attestationObject: undefined } }),
      ],
      ["attestationObject empty", (r) => ({ ...r, response: { ...r.response, attestationObject: "" } })],
      [
        "attestationObject not base64url",
        (r) => ({ ...r, response: { ...r.response, attestationObject: "%%%" } }),
      ],
      [
        "an assertion instead of an attestation (R3)",
        (r) => ({
          ...r,
          response: {
            clientDataJSON: r.response.clientDataJSON,
            authenticatorData: "AAAA",
            signature: "AAAA",
          },
        }),
      ],
      ["a JSON array", () => []],
      ["JSON null", () => null],
    ];

  it.each(bodies)("refuses a body with %s", async (_name, mutate) => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await valid(t, userId);
    const res = await postRegistration(t.ctx, JSON.stringify(mutate(response as never)));
    await expectPasskeyError(res, 400);
    await expectNoCredential(t, userId);
  });
});
