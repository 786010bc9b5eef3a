import { randomBytes, randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { passkeyRequest } from "@/tests/helpers/passkey-api";
import { ORIGIN, registerPasskey, startLogin } from "@/tests/helpers/passkey-ceremonies";
import {
  attest,
  auditEvents,
  expectPasskeyError,
  initRegistration,
  listedCredentialIds,
  newUserId,
  postRegistration,
  setupTenant,
  storedCredential,
  tenantState,
} from "@/tests/helpers/passkey-security";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";

/** How many identical requests race; on Postgres they run on separate pooled connections. */
const N = 10;

/** Splits responses into the successes and the failures, and checks every failure's shape. */
async function settle(responses: Response[], failureStatus: number) {
  const ok = responses.filter((res) => res.status >= 200 && res.status < 300);
  const failed = responses.filter((res) => res.status >= 300);
  for (const res of failed) await expectPasskeyError(res, failureStatus);
  return { ok, failed };
}

describe("Passkey API under concurrent requests (ASVS 2.3.4, 15.4.2)", () => {
  it(`accepts one of ${N} concurrent login finalizes of the same assertion and moves the counter once`, async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const { credentialId } = await registerPasskey(t.ctx, userId);
    const assertion = await t.authenticator.login(await startLogin(t.ctx), { origin: ORIGIN });

    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        passkeyRequest(t.tenant.id, "POST", "/login/finalize", { body: assertion }),
      ),
    );
    const { ok, failed } = await settle(responses, 401);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    expect(decodeJwt((await ok[0]!.json()).token)).toMatchObject({ sub: userId, cred: credentialId });
    expect((await storedCredential(t.tenant.id, credentialId))?.signCount).toBe(1);
    expect(await auditEvents(t.tenant.id, "passkey.login.finalize.succeeded")).toHaveLength(1);
    expect(await auditEvents(t.tenant.id, "passkey.login.finalize.failed")).toHaveLength(N - 1);
  });

  it(`accepts one of ${N} concurrent finalizes from an authenticator without a counter (the challenge alone decides)`, async () => {
    const t = await setupTenant();
    const authenticator = new WebAuthnSoftwareAuthenticator({ counterStep: 0 });
    const userId = newUserId();
    const { credentialId } = await registerPasskey({ ...t.ctx, authenticator }, userId);
    const assertion = await authenticator.login(await startLogin(t.ctx, userId), { origin: ORIGIN });
    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        passkeyRequest(t.tenant.id, "POST", "/login/finalize", { body: assertion }),
      ),
    );
    const { ok, failed } = await settle(responses, 401);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    expect((await storedCredential(t.tenant.id, credentialId))?.signCount).toBe(0);
    expect(await auditEvents(t.tenant.id, "passkey.login.finalize.succeeded")).toHaveLength(1);
  });

  it(`accepts one of ${N} assertions racing on separate challenges with the same counter value`, async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const { credentialId } = await registerPasskey(t.ctx, userId);
    // A cloned authenticator: every copy signs counter 7 for its own challenge.
    const assertions = await Promise.all(
      Array.from({ length: N }, async () =>
        t.authenticator.login(await startLogin(t.ctx, userId), {
          origin: ORIGIN,
          overrides: { signCount: 7 },
        }),
      ),
    );
    const responses = await Promise.all(
      assertions.map((body) => passkeyRequest(t.tenant.id, "POST", "/login/finalize", { body })),
    );
    const { ok, failed } = await settle(responses, 401);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    expect((await storedCredential(t.tenant.id, credentialId))?.signCount).toBe(7);
    const reasons = (await auditEvents(t.tenant.id, "passkey.login.finalize.failed")).map(
      (event) => (event.details as { reason: string }).reason,
    );
    expect(reasons).toHaveLength(N - 1);
    for (const reason of reasons) expect(reason).toMatch(/sign counter|counter changed/);
  });

  it(`stores one credential from ${N} concurrent registration finalizes of the same response`, async () => {
    const t = await setupTenant();
    const userId = newUserId();
    const response = await attest(t.authenticator, await initRegistration(t.ctx, userId));
    const responses = await Promise.all(Array.from({ length: N }, () => postRegistration(t.ctx, response)));
    const { ok, failed } = await settle(responses, 400);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    expect(await listedCredentialIds(t.ctx, userId)).toEqual([response.id]);
    expect(await auditEvents(t.tenant.id, "passkey.registration.finalize.succeeded")).toHaveLength(1);
  });

  it(`stores one credential when ${N} registrations of one credential id race on separate challenges`, async () => {
    const t = await setupTenant();
    const id = new Uint8Array(randomBytes(32));
    const users = Array.from({ length: N }, () => newUserId());
    const responses = await Promise.all(
      users.map(async (userId) =>
        attest(new WebAuthnSoftwareAuthenticator(), await initRegistration(t.ctx, userId), {
          credentialId: id,
        }),
      ),
    );
    const results = await Promise.all(responses.map((body) => postRegistration(t.ctx, body)));
    const { ok, failed } = await settle(results, 400);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    const { credentials } = await tenantState(t.tenant.id);
    expect(credentials).toHaveLength(1);
    const owner = decodeJwt((await ok[0]!.json()).token).sub!;
    expect(await listedCredentialIds(t.ctx, owner)).toEqual([credentials[0]!.id]);
  });

  it(`creates one transaction from ${N} concurrent initializes with the same transaction id`, async () => {
    const t = await setupTenant();
    const userId = newUserId();
    await registerPasskey(t.ctx, userId);
    const transactionId = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
          apiKey: t.keys.passkey,
          body: { user_id: userId, transaction_id: transactionId, transaction_data: { amount: 1 } },
        }),
      ),
    );
    const { ok, failed } = await settle(responses, 409);
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    expect((await tenantState(t.tenant.id)).transactions).toHaveLength(1);
  });

  it(`completes a transaction once from ${N} concurrent finalizes`, async () => {
    const t = await setupTenant();
    const userId = newUserId();
    await registerPasskey(t.ctx, userId);
    const init = await passkeyRequest(t.tenant.id, "POST", "/transaction/initialize", {
      apiKey: t.keys.passkey,
      body: { user_id: userId, transaction_id: "tx-1", transaction_data: "pay" },
    });
    const assertion = await t.authenticator.login((await init.json()).publicKey, { origin: ORIGIN });
    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        passkeyRequest(t.tenant.id, "POST", "/transaction/finalize", {
          apiKey: t.keys.passkey,
          body: assertion,
        }),
      ),
    );
    const { ok } = await settle(responses, 401);
    expect(ok).toHaveLength(1);
    expect(decodeJwt((await ok[0]!.json()).token).trans).toBe("tx-1");
    expect(await auditEvents(t.tenant.id, "passkey.transaction.finalize.succeeded")).toHaveLength(1);
  });
});
