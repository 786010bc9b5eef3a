import { randomUUID } from "node:crypto";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { listAuditEvents } from "@/lib/audit";
import { passkeyRequest } from "@/tests/helpers/passkey-api";
import { ORIGIN, registerPasskey, setupTenant, startLogin } from "@/tests/helpers/passkey-ceremonies";

async function verifyToken(tenantId: string, token: string) {
  const res = await passkeyRequest(tenantId, "GET", "/.well-known/jwks.json");
  expect(res.status).toBe(200);
  return jwtVerify(token, createLocalJWKSet(await res.json()));
}

describe("Passkey API ceremonies", () => {
  it("registers a passkey and returns a token verifiable with the tenant's JWKS", async () => {
    const { tenant, ctx } = await setupTenant();
    const userId = `user-${randomUUID()}`;
    const { token, credentialId } = await registerPasskey(ctx, userId, { fmt: "packed" });
    const { payload, protectedHeader } = await verifyToken(tenant.id, token);
    expect(protectedHeader.alg).toBe("RS256");
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload.sub).toBe(userId);
    expect(payload.aud).toEqual(["localhost"]);
    expect(payload.cred).toBe(credentialId);
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it("returns the spec's creation options, with excludeCredentials listing the user's passkeys", async () => {
    const { tenant, keys, ctx } = await setupTenant();
    const userId = "alice";
    const first = await passkeyRequest(tenant.id, "POST", "/registration/initialize", {
      apiKey: keys.passkey,
      body: { user_id: userId, username: "alice@example.com" },
    });
    const { publicKey } = await first.json();
    expect(publicKey.rp).toEqual({ name: tenant.rpName, id: "localhost" });
    expect(publicKey.user).toEqual({
      id: Buffer.from(userId).toString("base64url"),
      name: "alice@example.com",
      displayName: "alice@example.com",
    });
    expect(Buffer.from(publicKey.challenge, "base64url")).toHaveLength(32);
    expect(publicKey.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual(
      expect.arrayContaining([-7, -257]),
    );
    expect(publicKey.timeout).toBe(300_000);
    expect(publicKey.authenticatorSelection).toMatchObject({
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    });
    expect(publicKey.attestation).toBe("direct");
    expect(publicKey.excludeCredentials).toEqual([]);

    const { credentialId } = await registerPasskey(ctx, userId);
    const again = await passkeyRequest(tenant.id, "POST", "/registration/initialize", {
      apiKey: keys.passkey,
      body: { user_id: userId, username: "alice@example.com" },
    });
    const second = (await again.json()).publicKey;
    expect(second.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([credentialId]);
    expect(second.challenge).not.toBe(publicKey.challenge);
  });

  it("logs in discoverably and with a user id, and records every step in the audit log", async () => {
    const { tenant, ctx, authenticator } = await setupTenant();
    const userId = `user-${randomUUID()}`;
    const { credentialId } = await registerPasskey(ctx, userId);

    const discoverable = await startLogin(ctx);
    expect(discoverable.allowCredentials ?? []).toEqual([]);
    const assertion = await authenticator.login(discoverable, { origin: ORIGIN });
    const fin = await passkeyRequest(tenant.id, "POST", "/login/finalize", { body: assertion });
    expect(fin.status).toBe(200);
    const { payload } = await verifyToken(tenant.id, (await fin.json()).token);
    expect(payload).toMatchObject({ sub: userId, cred: credentialId });

    const named = await startLogin(ctx, userId);
    expect(named.allowCredentials.map((c: { id: string }) => c.id)).toEqual([credentialId]);
    expect(named.allowCredentials[0].transports).toBeUndefined();
    const second = await authenticator.login(named, { origin: ORIGIN, overrides: { userHandle: null } });
    const fin2 = await passkeyRequest(tenant.id, "POST", "/login/finalize", {
      body: second,
      apiKey: "not-a-valid-key-but-ignored",
    });
    expect(fin2.status).toBe(200);

    const types = (await listAuditEvents(tenant.id, { limit: 50 })).items.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "passkey.registration.initialize.succeeded",
        "passkey.registration.finalize.succeeded",
        "passkey.login.initialize.succeeded",
        "passkey.login.finalize.succeeded",
      ]),
    );
  });

  it("registers an MFA key that works for MFA login only, and keeps passkeys out of MFA login", async () => {
    const { tenant, keys, ctx, authenticator } = await setupTenant();
    const userId = `user-${randomUUID()}`;
    const passkey = await registerPasskey(ctx, userId);
    const mfa = await registerPasskey(ctx, userId, { mfa: true });

    const mfaOptions = await startLogin(ctx, userId, "mfa/login");
    expect(mfaOptions.allowCredentials.map((c: { id: string }) => c.id)).toEqual([mfa.credentialId]);
    const ok = await passkeyRequest(tenant.id, "POST", "/mfa/login/finalize", {
      apiKey: keys.passkey,
      body: await authenticator.login(mfaOptions, { origin: ORIGIN, credentialId: mfa.credentialId }),
    });
    expect(ok.status).toBe(200);
    expect(decodeJwt((await ok.json()).token).cred).toBe(mfa.credentialId);

    // A passkey answering an MFA login challenge is refused.
    const mfaAgain = await startLogin(ctx, userId, "mfa/login");
    const refused = await passkeyRequest(tenant.id, "POST", "/mfa/login/finalize", {
      apiKey: keys.passkey,
      body: await authenticator.login(mfaAgain, { origin: ORIGIN, credentialId: passkey.credentialId }),
    });
    expect(refused.status).toBe(401);

    // Plain login only offers and accepts passkeys.
    const login = await startLogin(ctx, userId);
    expect(login.allowCredentials.map((c: { id: string }) => c.id)).toEqual([passkey.credentialId]);
    const discoverable = await startLogin(ctx);
    const mfaAsPasskey = await passkeyRequest(tenant.id, "POST", "/login/finalize", {
      body: await authenticator.login(discoverable, { origin: ORIGIN, credentialId: mfa.credentialId }),
    });
    expect(mfaAsPasskey.status).toBe(401);
    expect((await mfaAsPasskey.json()).details[0]).toMatch(/MFA credentials are not usable/);
  });

  it("signs a transaction: the challenge binds the data, the token carries trans, the id is used once", async () => {
    const { tenant, keys, ctx, authenticator } = await setupTenant();
    const userId = `user-${randomUUID()}`;
    await registerPasskey(ctx, userId);
    const transactionId = randomUUID();
    const data = { payload: "Lorem Ipsum", amount: 42 };
    const init = await passkeyRequest(tenant.id, "POST", "/transaction/initialize", {
      apiKey: keys.passkey,
      body: { user_id: userId, transaction_id: transactionId, transaction_data: data },
    });
    expect(init.status).toBe(200);
    const { publicKey } = await init.json();
    const challenge = Buffer.from(publicKey.challenge, "base64url");
    expect(challenge).toHaveLength(64);
    const { createHash } = await import("node:crypto");
    const digest = createHash("sha256")
      .update(transactionId + '{"amount":42,"payload":"Lorem Ipsum"}')
      .digest();
    expect(challenge.subarray(32).equals(digest)).toBe(true);

    const fin = await passkeyRequest(tenant.id, "POST", "/transaction/finalize", {
      apiKey: keys.passkey,
      body: await authenticator.login(publicKey, { origin: ORIGIN }),
    });
    expect(fin.status).toBe(200);
    const { payload } = await verifyToken(tenant.id, (await fin.json()).token);
    expect(payload).toMatchObject({ sub: userId, trans: transactionId });

    const list = await passkeyRequest(tenant.id, "GET", `/transaction/${userId}`, { apiKey: keys.passkey });
    expect(list.status).toBe(200);
    const transactions = await list.json();
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({
      identifier: transactionId,
      data: '{"amount":42,"payload":"Lorem Ipsum"}',
    });
    expect(transactions[0].completed_at).toBeTruthy();

    const duplicate = await passkeyRequest(tenant.id, "POST", "/transaction/initialize", {
      apiKey: keys.passkey,
      body: { user_id: userId, transaction_id: transactionId, transaction_data: data },
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({
      title: ["transaction already exists"],
      details: [],
      status: 409,
    });
  });

  it("lists, gets, renames and deletes credentials", async () => {
    const { tenant, keys, ctx, authenticator } = await setupTenant();
    const userId = `user-${randomUUID()}`;
    const { credentialId } = await registerPasskey(ctx, userId);
    const list = await passkeyRequest(tenant.id, "GET", `/credentials?user_id=${userId}`, {
      apiKey: keys.passkey,
    });
    expect(list.status).toBe(200);
    const [dto] = await list.json();
    expect(dto).toMatchObject({
      id: credentialId,
      name: expect.stringMatching(/^Passkey (on .+, )?added \d{1,2} [A-Z][a-z]{2}$/),
      aaguid: "00000000-0000-0000-0000-000000000000",
      authenticator_name: null,
      last_used_at: null,
      transports: ["internal"],
      backup_eligible: false,
      backup_state: false,
      is_mfa: false,
      user_id: userId,
    });

    const patch = await passkeyRequest(tenant.id, "PATCH", `/credentials/${credentialId}`, {
      apiKey: keys.passkey,
      body: { name: "Laptop" },
    });
    expect(patch.status).toBe(204);
    const got = await passkeyRequest(tenant.id, "GET", `/credentials/${credentialId}`, {
      apiKey: keys.passkey,
    });
    expect((await got.json()).name).toBe("Laptop");

    const del = await passkeyRequest(tenant.id, "DELETE", `/credentials/${credentialId}`, {
      apiKey: keys.passkey,
    });
    expect(del.status).toBe(204);
    const gone = await passkeyRequest(tenant.id, "GET", `/credentials/${credentialId}`, {
      apiKey: keys.passkey,
    });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ title: ["credential not found"], details: [], status: 404 });

    // A deleted credential cannot finish a login that was already started.
    const { credentialId: second } = await registerPasskey(ctx, userId);
    const options = await startLogin(ctx, userId);
    await passkeyRequest(tenant.id, "DELETE", `/credentials/${second}`, { apiKey: keys.passkey });
    const late = await passkeyRequest(tenant.id, "POST", "/login/finalize", {
      body: await authenticator.login(options, { origin: ORIGIN, credentialId: second }),
    });
    expect(late.status).toBe(401);
  });
});
