import { randomBytes, randomUUID } from "node:crypto";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { passkeyRequest } from "@/tests/helpers/passkey-api";
import { ORIGIN, registerPasskey, startLogin } from "@/tests/helpers/passkey-ceremonies";
import {
  auditEvents,
  expectPasskeyError,
  expireChallenges,
  initRegistration,
  newUserId,
  setupTenant,
  storedCredential,
  tenantState,
  type TestTenant,
} from "@/tests/helpers/passkey-security";
import {
  AuthenticatorFlags as F,
  WebAuthnSoftwareAuthenticator,
  b64url,
  type AssertionOverrides,
} from "@/tests/helpers/webauthn-software-authenticator";
import { expectFailureDetails } from "@/tests/helpers/audit";

const INVALID = "failed to validate assertion";
const NO_SESSION = "failed to get session data";
const NOT_USABLE = /credential is unknown, not allowed for this ceremony or does not belong to the user/;
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

function finalizeLogin(tenantId: string, body: unknown) {
  return passkeyRequest(tenantId, "POST", "/login/finalize", { body });
}

/** A tenant with one user holding one passkey, used once so the stored sign count is 1. */
async function enrolled(tenantOverrides: Parameters<typeof setupTenant>[0] = {}) {
  const t = await setupTenant(tenantOverrides);
  const userId = newUserId();
  const { credentialId } = await registerPasskey(t.ctx, userId);
  const warmUp = await finalizeLogin(
    t.tenant.id,
    await t.authenticator.login(await startLogin(t.ctx, userId), { origin: ORIGIN }),
  );
  expect(warmUp.status).toBe(200);
  expect((await storedCredential(t.tenant.id, credentialId))?.signCount).toBe(1);
  return { ...t, userId, credentialId };
}

/** Asserts the failure left every user, credential (sign count, last use, flags) and transaction as it was. */
async function expectUnchanged(t: TestTenant, before: Awaited<ReturnType<typeof tenantState>>) {
  expect(await tenantState(t.tenant.id)).toEqual(before);
}

describe("Passkey login finalize refuses bad assertions (WebAuthn §7.2)", () => {
  const cases: [string, AssertionOverrides, RegExp][] = [
    ["clientData type webauthn.create (V10)", { type: "webauthn.create" }, /authentication response type/],
    ["an unrelated origin (V12)", { origin: "https://evil.example" }, /origin/],
    ["the tenant's host on another port (V12)", { origin: "http://localhost:3001" }, /origin/],
    ["the tenant's origin with https (V12)", { origin: "https://localhost:3000" }, /origin/],
    ["crossOrigin true (V13)", { crossOrigin: true }, /cross-origin/],
    ["a topOrigin without crossOrigin (V14)", { topOrigin: "https://evil.example" }, /cross-origin/],
    ["the RP ID hash of another RP (V15)", { rpIdHashOf: "evil.example" }, /RP ID/i],
    ["UP not set (V16)", { flags: F.UV }, /User not present/],
    ["UV not set while the tenant requires it (V17)", { flags: F.UP }, /User verification required/],
    ["BS set without BE (V18)", { flags: F.UP | F.UV | F.BS }, /backed up/],
    [
      "BE set although the credential was registered without it (V19)",
      { flags: F.UP | F.UV | F.BE },
      /backup eligibility/,
    ],
    ["a tampered signature (V20)", { tamperSignature: true }, /signature could not be verified/],
    [
      "leftover bytes after the authenticator data",
      { extraAuthDataBytes: Uint8Array.of(0) },
      /Leftover bytes/,
    ],
    ["the stored sign count again (V22)", { signCount: 1 }, /sign counter regression/],
    ["a lower sign count (V22)", { signCount: 0 }, /sign counter regression/],
  ];

  it.each(cases)(
    "refuses %s with 401, changes nothing and audits the failure",
    async (_name, overrides, detail) => {
      const t = await enrolled();
      const options = await startLogin(t.ctx, t.userId);
      const before = await tenantState(t.tenant.id);
      const res = await finalizeLogin(
        t.tenant.id,
        await t.authenticator.login(options, { origin: ORIGIN, overrides }),
      );
      await expectPasskeyError(res, 401, { title: INVALID, detail });
      await expectUnchanged(t, before);
      const [failed] = await auditEvents(t.tenant.id, "passkey.login.finalize.failed");
      expectFailureDetails(failed?.details, { status: 401, reason: expect.stringMatching(detail) });
      // The challenge is burned: the genuine assertion for it no longer works.
      const retry = await finalizeLogin(
        t.tenant.id,
        await t.authenticator.login(options, { origin: ORIGIN }),
      );
      await expectPasskeyError(retry, 401, { title: NO_SESSION });
      await expectUnchanged(t, before);
    },
  );

  it("audits a sign counter regression as a possible clone with the counters in the reason", async () => {
    const t = await enrolled();
    const options = await startLogin(t.ctx);
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(options, { origin: ORIGIN, overrides: { signCount: 1 } }),
    );
    await expectPasskeyError(res, 401, { detail: /cloned/ });
    const failures = await auditEvents(t.tenant.id, "passkey.login.finalize.failed");
    expect(failures).toHaveLength(1);
    expect(Object.keys(failures[0]!.details).sort()).toEqual(["code", "reason"]);
    expectFailureDetails(failures[0]!.details, {
      status: 401,
      reason: expect.stringMatching(/^failed to validate assertion: sign counter regression.*1.*1/),
    });
    expect((await storedCredential(t.tenant.id, t.credentialId))?.signCount).toBe(1);
  });

  it("accepts authenticators that keep their counter at 0 (both counters 0)", async () => {
    const t = await setupTenant();
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const userId = newUserId();
    const { credentialId } = await registerPasskey({ ...t.ctx, authenticator }, userId);
    for (let i = 0; i < 2; i++) {
      const options = await startLogin(t.ctx, userId);
      const res = await finalizeLogin(t.tenant.id, await authenticator.login(options, { origin: ORIGIN }));
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const stored = await storedCredential(t.tenant.id, credentialId);
    expect(stored?.signCount).toBe(0);
    expect(stored?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("refuses a backup-eligible credential that stops claiming BE (V19)", async () => {
    const t = await setupTenant();
    const authenticator = new WebAuthnSoftwareAuthenticator({ backupEligible: true, backupState: true });
    const userId = newUserId();
    const { credentialId } = await registerPasskey({ ...t.ctx, authenticator }, userId);
    expect(await storedCredential(t.tenant.id, credentialId)).toMatchObject({
      backupEligible: true,
      backupState: true,
    });
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await authenticator.login(await startLogin(t.ctx, userId), {
        origin: ORIGIN,
        overrides: { flags: F.UP | F.UV },
      }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: /backup eligibility/ });
    await expectUnchanged(t, before);
  });

  it("accepts a login without UV when the tenant only prefers UV", async () => {
    const t = await enrolled({ passkeyPolicy: { userVerification: "preferred" } });
    const options = await startLogin(t.ctx, t.userId);
    expect(options.userVerification).toBe("preferred");
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(options, { origin: ORIGIN, overrides: { flags: F.UP } }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

describe("Passkey login finalize: the credential must be the user's and offered (WebAuthn §7.2 steps 5–6)", () => {
  it("refuses a discoverable login without a user handle", async () => {
    const t = await enrolled();
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(await startLogin(t.ctx), {
        origin: ORIGIN,
        overrides: { userHandle: null },
      }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: "needs the user handle" });
    await expectUnchanged(t, before);
  });

  it("refuses a discoverable login whose user handle names another user", async () => {
    const t = await enrolled();
    const other = newUserId();
    await registerPasskey({ ...t.ctx, authenticator: new WebAuthnSoftwareAuthenticator() }, other);
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(await startLogin(t.ctx), {
        origin: ORIGIN,
        overrides: { userHandle: b64(other) },
      }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    await expectUnchanged(t, before);
  });

  it("refuses a user handle of another user in a login started for a user", async () => {
    const t = await enrolled();
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(await startLogin(t.ctx, t.userId), {
        origin: ORIGIN,
        overrides: { userHandle: b64(newUserId()) },
      }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
  });

  it("refuses another user's credential in a login started for a user", async () => {
    const t = await enrolled();
    const other = newUserId();
    const otherAuthenticator = new WebAuthnSoftwareAuthenticator();
    const { credentialId } = await registerPasskey({ ...t.ctx, authenticator: otherAuthenticator }, other);
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await otherAuthenticator.login(await startLogin(t.ctx, t.userId), { origin: ORIGIN, credentialId }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    await expectUnchanged(t, before);
  });

  it("refuses the user's own credential when it was not offered in allowCredentials", async () => {
    const t = await enrolled();
    const options = await startLogin(t.ctx, t.userId);
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([t.credentialId]);
    const { credentialId: later } = await registerPasskey(t.ctx, t.userId);
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(options, { origin: ORIGIN, credentialId: later }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    await expectUnchanged(t, before);
  });

  it("refuses a credential that was never registered", async () => {
    const t = await enrolled();
    const stranger = new WebAuthnSoftwareAuthenticator();
    await stranger.register(
      { challenge: b64url(randomBytes(32)), rp: { id: "localhost" }, user: { id: b64(t.userId) } },
      { origin: ORIGIN },
    );
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(
      t.tenant.id,
      await stranger.login(await startLogin(t.ctx), { origin: ORIGIN }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    await expectUnchanged(t, before);
  });

  it("refuses a credential of tenant A presented at tenant B, even with the same user id", async () => {
    const a = await enrolled();
    const b = await setupTenant();
    await registerPasskey({ ...b.ctx, authenticator: new WebAuthnSoftwareAuthenticator() }, a.userId);
    const beforeA = await tenantState(a.tenant.id);
    const beforeB = await tenantState(b.tenant.id);
    const res = await finalizeLogin(
      b.tenant.id,
      await a.authenticator.login(await startLogin(b.ctx), { origin: ORIGIN, credentialId: a.credentialId }),
    );
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    expect(await tenantState(a.tenant.id)).toEqual(beforeA);
    expect(await tenantState(b.tenant.id)).toEqual(beforeB);
  });

  it("refuses an id that is not the rawId", async () => {
    const t = await enrolled();
    const assertion = await t.authenticator.login(await startLogin(t.ctx, t.userId), { origin: ORIGIN });
    const before = await tenantState(t.tenant.id);
    const res = await finalizeLogin(t.tenant.id, { ...assertion, id: b64url(randomBytes(16)) });
    await expectPasskeyError(res, 401, { title: INVALID });
    await expectUnchanged(t, before);
  });

  it("ignores an apiKey sent to login/finalize, wrong or of another tenant", async () => {
    const t = await enrolled();
    const other = await setupTenant();
    for (const apiKey of ["garbage", other.keys.passkey, t.keys.admin]) {
      const res = await passkeyRequest(t.tenant.id, "POST", "/login/finalize", {
        apiKey,
        body: await t.authenticator.login(await startLogin(t.ctx), { origin: ORIGIN }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
});

describe("Passkey login finalize: challenges are single-use and bound to tenant and kind", () => {
  it("refuses a replayed assertion; the sign count moved once", async () => {
    const t = await enrolled();
    const assertion = await t.authenticator.login(await startLogin(t.ctx), { origin: ORIGIN });
    expect((await finalizeLogin(t.tenant.id, assertion)).status).toBe(200);
    const before = await tenantState(t.tenant.id);
    await expectPasskeyError(await finalizeLogin(t.tenant.id, assertion), 401, {
      title: NO_SESSION,
      detail: "does not match with any stored one",
    });
    await expectUnchanged(t, before);
    expect((await storedCredential(t.tenant.id, t.credentialId))?.signCount).toBe(2);
    expect(await auditEvents(t.tenant.id, "passkey.login.finalize.succeeded")).toHaveLength(2);
  });

  it("refuses a challenge of tenant A finalized at tenant B; it still completes at A", async () => {
    const a = await enrolled();
    const b = await setupTenant();
    const assertion = await a.authenticator.login(await startLogin(a.ctx), { origin: ORIGIN });
    await expectPasskeyError(await finalizeLogin(b.tenant.id, assertion), 401, { title: NO_SESSION });
    expect((await finalizeLogin(a.tenant.id, assertion)).status).toBe(200);
  });

  it("refuses an expired challenge and consumes it", async () => {
    const t = await enrolled({ challengeTtlSeconds: 10 });
    const options = await startLogin(t.ctx, t.userId);
    expect(options.timeout).toBe(10_000);
    const assertion = await t.authenticator.login(options, { origin: ORIGIN });
    await expireChallenges(t.tenant.id);
    const before = await tenantState(t.tenant.id);
    await expectPasskeyError(await finalizeLogin(t.tenant.id, assertion), 401, {
      title: INVALID,
      detail: "Session has Expired",
    });
    await expectPasskeyError(await finalizeLogin(t.tenant.id, assertion), 401, { title: NO_SESSION });
    await expectUnchanged(t, before);
  });

  it("refuses a registration challenge answered as a login", async () => {
    const t = await enrolled();
    const creation = await initRegistration(t.ctx, t.userId);
    const res = await finalizeLogin(
      t.tenant.id,
      await t.authenticator.login(
        { challenge: creation.challenge, rpId: "localhost" },
        { origin: ORIGIN, credentialId: t.credentialId },
      ),
    );
    await expectPasskeyError(res, 401, { title: NO_SESSION });
    expect((await storedCredential(t.tenant.id, t.credentialId))?.signCount).toBe(1);
  });

  it("keeps login, MFA login and transaction challenges apart", async () => {
    const t = await enrolled();
    const mfa = await registerPasskey(t.ctx, t.userId, { mfa: true });
    const transactionId = randomUUID();
    const txInit = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: t.userId, transaction_id: transactionId, transaction_data: { amount: 1 } },
    });
    expect(txInit.status).toBe(200);
    const txOptions = (await txInit.json()).publicKey;
    const loginOptions = await startLogin(t.ctx, t.userId);
    const mfaOptions = await startLogin(t.ctx, t.userId, "mfa/login");
    const before = await tenantState(t.tenant.id);

    // Each challenge answered at a route of another ceremony kind (a counter the credential never
    // reached, so nothing but the challenge's kind can refuse them).
    const wrongRoutes: [string, unknown][] = [
      [
        "/login/finalize",
        await t.authenticator.login(txOptions, { origin: ORIGIN, overrides: { signCount: 50 } }),
      ],
      [
        "/transaction/finalize",
        await t.authenticator.login(loginOptions, { origin: ORIGIN, overrides: { signCount: 50 } }),
      ],
      [
        "/mfa/login/finalize",
        await t.authenticator.login(loginOptions, {
          origin: ORIGIN,
          credentialId: mfa.credentialId,
          overrides: { signCount: 50 },
        }),
      ],
      [
        "/login/finalize",
        await t.authenticator.login(mfaOptions, {
          origin: ORIGIN,
          credentialId: t.credentialId,
          overrides: { signCount: 50 },
        }),
      ],
    ];
    for (const [path, body] of wrongRoutes) {
      const res = await passkeyRequest(t.tenant.id, "POST", path, { apiKey: t.keys.passkey, body });
      await expectPasskeyError(res, 401, { title: NO_SESSION });
    }
    await expectUnchanged(t, before);
    const list = await passkeyRequest(t.tenant.id, "GET", `/transaction/${t.userId}`, {
      apiKey: t.keys.passkey,
    });
    expect((await list.json())[0].completed_at).toBeNull();

    // None of the challenges was consumed by the wrong route.
    const rightRoutes: [string, unknown][] = [
      ["/transaction/finalize", await t.authenticator.login(txOptions, { origin: ORIGIN })],
      ["/login/finalize", await t.authenticator.login(loginOptions, { origin: ORIGIN })],
      [
        "/mfa/login/finalize",
        await t.authenticator.login(mfaOptions, { origin: ORIGIN, credentialId: mfa.credentialId }),
      ],
    ];
    for (const [path, body] of rightRoutes) {
      const res = await passkeyRequest(t.tenant.id, "POST", path, { apiKey: t.keys.passkey, body });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    }
  });
});

describe("MFA login and transactions", () => {
  it("refuses an MFA key at transaction finalize and a passkey at MFA login", async () => {
    const t = await enrolled();
    const mfa = await registerPasskey(t.ctx, t.userId, { mfa: true });
    const init = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: t.userId, transaction_id: randomUUID(), transaction_data: "pay 1" },
    });
    const txOptions = (await init.json()).publicKey;
    expect(txOptions.allowCredentials.map((c: { id: string }) => c.id)).toEqual([t.credentialId]);
    const before = await tenantState(t.tenant.id);
    const tx = await passkeyRequest(t.tenant.id, "POST", "/transaction/finalize", {
      apiKey: t.keys.passkey,
      body: await t.authenticator.login(txOptions, { origin: ORIGIN, credentialId: mfa.credentialId }),
    });
    await expectPasskeyError(tx, 401, {
      title: INVALID,
      detail: "MFA credentials are not usable for transactions",
    });

    const mfaLogin = await passkeyRequest(t.tenant.id, "POST", "/mfa/login/finalize", {
      apiKey: t.keys.passkey,
      body: await t.authenticator.login(await startLogin(t.ctx, t.userId, "mfa/login"), {
        origin: ORIGIN,
        credentialId: t.credentialId,
      }),
    });
    await expectPasskeyError(mfaLogin, 401, { title: INVALID, detail: "only MFA credentials" });
    await expectUnchanged(t, before);
  });

  it("refuses another user's MFA key at an MFA login started for a user", async () => {
    const t = await enrolled();
    await registerPasskey(t.ctx, t.userId, { mfa: true });
    const otherAuthenticator = new WebAuthnSoftwareAuthenticator();
    const other = await registerPasskey({ ...t.ctx, authenticator: otherAuthenticator }, newUserId(), {
      mfa: true,
    });
    const before = await tenantState(t.tenant.id);
    const res = await passkeyRequest(t.tenant.id, "POST", "/mfa/login/finalize", {
      apiKey: t.keys.passkey,
      body: await otherAuthenticator.login(await startLogin(t.ctx, t.userId, "mfa/login"), {
        origin: ORIGIN,
        credentialId: other.credentialId,
      }),
    });
    await expectPasskeyError(res, 401, { title: INVALID, detail: NOT_USABLE });
    await expectUnchanged(t, before);
  });

  it("refuses an MFA login finalize without the API key before consuming the challenge", async () => {
    const t = await enrolled();
    const mfa = await registerPasskey(t.ctx, t.userId, { mfa: true });
    const assertion = await t.authenticator.login(await startLogin(t.ctx, t.userId, "mfa/login"), {
      origin: ORIGIN,
      credentialId: mfa.credentialId,
    });
    for (const apiKey of [undefined, "garbage", t.keys.admin]) {
      const res = await passkeyRequest(t.tenant.id, "POST", "/mfa/login/finalize", {
        body: assertion,
        ...(apiKey ? { apiKey } : {}),
      });
      await expectPasskeyError(res, 401);
    }
    const ok = await passkeyRequest(t.tenant.id, "POST", "/mfa/login/finalize", {
      apiKey: t.keys.passkey,
      body: assertion,
    });
    expect(ok.status).toBe(200);
  });

  it("refuses transactions for users without passkeys or unknown users", async () => {
    const t = await setupTenant();
    const userId = newUserId();
    await registerPasskey(t.ctx, userId, { mfa: true });
    const onlyMfa = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: userId, transaction_id: "t1", transaction_data: { a: 1 } },
    });
    await expectPasskeyError(onlyMfa, 400, { title: "user has no suitable credentials for this operation" });
    const unknown = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: newUserId(), transaction_id: "t1", transaction_data: { a: 1 } },
    });
    await expectPasskeyError(unknown, 404);
    expect((await tenantState(t.tenant.id)).transactions).toEqual([]);
  });

  it("refuses a replayed transaction assertion and issues one token", async () => {
    const t = await enrolled();
    const init = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: t.userId, transaction_id: "order-1", transaction_data: { amount: 5 } },
    });
    const assertion = await t.authenticator.login((await init.json()).publicKey, { origin: ORIGIN });
    const first = await passkeyRequest(t.tenant.id, "POST", "/transaction/finalize", {
      apiKey: t.keys.passkey,
      body: assertion,
    });
    expect(first.status).toBe(200);
    const before = await tenantState(t.tenant.id);
    const again = await passkeyRequest(t.tenant.id, "POST", "/transaction/finalize", {
      apiKey: t.keys.passkey,
      body: assertion,
    });
    await expectPasskeyError(again, 401, { title: NO_SESSION });
    await expectUnchanged(t, before);
  });
});

describe("Passkey login finalize: malformed assertions", () => {
  const bodies: [string, number, (a: AuthenticationResponseJSON) => unknown][] = [
    [
      "clientDataJSON not JSON",
      400,
      (a) => ({ ...a, response: { ...a.response, clientDataJSON: b64("nope") } }),
    ],
    [
      "clientDataJSON without a challenge",
      400,
      (a) => ({ ...a, response: { ...a.response, clientDataJSON: b64("{}") } }),
    ],
    [
      "clientDataJSON not base64url",
      400,
      (a) => ({ ...a, response: { ...a.response, clientDataJSON: "{}" } }),
    ],
    ["authenticatorData empty", 400, (a) => ({ ...a, response: { ...a.response, authenticatorData: "" } })],
    [
      "authenticatorData not base64url",
      400,
      (a) => ({ ...a, response: { ...a.response, authenticatorData: "a+b/" } }),
    ],
    [
      "authenticatorData too short",
      401,
      (a) => ({ ...a, response: { ...a.response, authenticatorData: "AAAA" } }),
    ],
    ["signature missing", 400, (a) => ({ ...a, response: { ...a.response, signature: undefined } })],
    ["signature garbage", 401, (a) => ({ ...a, response: { ...a.response, signature: "AAAA" } })],
    ["userHandle a number", 400, (a) => ({ ...a, response: { ...a.response, userHandle: 5 } })],
    ["type not public-key", 400, (a) => ({ ...a, type: "otp" })],
    ["rawId missing", 400, ({ rawId: _rawId, ...rest }) => rest],
    [
      "an attestation instead of an assertion (V3)",
      400,
      (a) => ({ ...a, response: { clientDataJSON: a.response.clientDataJSON, attestationObject: "AAAA" } }),
    ],
    ["authenticatorAttachment unknown", 400, (a) => ({ ...a, authenticatorAttachment: "usb" })],
  ];

  it.each(bodies)("answers a body with %s with %i and changes nothing", async (_name, status, mutate) => {
    const t = await enrolled();
    const assertion = await t.authenticator.login(await startLogin(t.ctx, t.userId), { origin: ORIGIN });
    const before = await tenantState(t.tenant.id);
    await expectPasskeyError(await finalizeLogin(t.tenant.id, mutate(assertion)), status);
    await expectUnchanged(t, before);
  });
});
