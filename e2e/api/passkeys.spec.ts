import { randomUUID } from "node:crypto";
import { tenant as hankoTenant } from "@teamhanko/passkeys-sdk";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { expect, test } from "../fixtures";
import { WebAuthnSoftwareAuthenticator } from "@/tests/helpers/webauthn-software-authenticator";
import { PasskeyClient } from "../passkey-client";

test.describe("Passkey API over HTTP", () => {
  test("the unmodified @teamhanko/passkeys-sdk registers, logs in and manages credentials", async ({
    demo,
    baseURL,
  }) => {
    const authenticator = new WebAuthnSoftwareAuthenticator();
    const sdk = hankoTenant({
      baseUrl: `${baseURL}/passkey/`,
      apiKey: demo.keys.passkey,
      tenantId: demo.tenantId,
    });
    const userId = `sdk-${randomUUID()}`;

    const creation = await sdk.registration.initialize({ userId, username: `${userId}@example.com` });
    const attestation = await authenticator.register(creation.publicKey as never, {
      origin: baseURL!,
    });
    const registered = await sdk.registration.finalize(attestation as never);
    expect(decodeJwt(registered.token!).sub).toBe(userId);

    const request = await sdk.login.initialize();
    const assertion = await authenticator.login(request.publicKey as never, { origin: baseURL! });
    const { token } = await sdk.login.finalize(assertion as never);

    // What @teamhanko/passkeys-next-auth-provider 0.3.1 does with the token: remote JWKS resolved against
    // the base URL (which must end in "/"), no issuer or audience options, then `sub` and a fresh `iat`.
    const jwks = createRemoteJWKSet(new URL(`${demo.tenantId}/.well-known/jwks.json`, `${baseURL}/passkey/`));
    const { payload } = await jwtVerify(token!, jwks);
    expect(payload.sub).toBe(userId);
    expect(Date.now() / 1000 - payload.iat!).toBeLessThan(60);
    expect(payload.aud).toEqual(["localhost"]);

    const credentials = await sdk.user(userId).credentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.id).toBe(attestation.id);
    await sdk.credential(attestation.id).remove();
    expect(await sdk.user(userId).credentials()).toEqual([]);

    // Errors reach SDK users as PasskeyError carrying our body.
    const wrong = hankoTenant({
      baseUrl: `${baseURL}/passkey/`,
      apiKey: "x".repeat(40),
      tenantId: demo.tenantId,
    });
    await expect(wrong.registration.initialize({ userId, username: "u" })).rejects.toThrow(/"status":401/);
  });

  test("JWKS answers publicly and cacheably at jwks.json and jwks", async ({ request, demo }) => {
    for (const path of [".well-known/jwks.json", ".well-known/jwks"]) {
      const res = await request.get(`/passkey/${demo.tenantId}/${path}`);
      expect(res.status(), path).toBe(200);
      expect(res.headers()["cache-control"]).toBe("public, max-age=600");
      const { keys } = await res.json();
      expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
      expect(keys[0].kid).toBeTruthy();
      expect(keys[0].d).toBeUndefined();
    }
  });

  test("browser routes answer CORS preflights for the tenant's origins only", async ({
    request,
    demo,
    baseURL,
  }) => {
    const preflight = (origin: string) =>
      request.fetch(`/passkey/${demo.tenantId}/login/initialize`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
    const allowed = await preflight(baseURL!);
    expect(allowed.status()).toBe(204);
    expect(allowed.headers()["access-control-allow-origin"]).toBe(baseURL);
    expect(allowed.headers()["access-control-allow-headers"]).toBe("content-type");
    expect(allowed.headers()["access-control-allow-methods"]).toContain("POST");
    const foreign = await preflight("https://evil.example");
    expect(foreign.headers()["access-control-allow-origin"]).toBeUndefined();

    const post = await request.post(`/passkey/${demo.tenantId}/login/initialize`, {
      headers: { origin: baseURL! },
    });
    expect(post.status()).toBe(200);
    expect(post.headers()["access-control-allow-origin"]).toBe(baseURL);
  });

  test("the spec's paths are aliases of the same ceremonies", async ({ request, demo, baseURL }) => {
    const client = new PasskeyClient(request, demo.tenantId, demo.keys.passkey, baseURL!);
    const userId = `alias-${randomUUID()}`;
    const init = await client.post(
      baseURL!,
      "/credentials/register/initialize",
      { user_id: userId, username: userId },
      true,
    );
    expect(init.status).toBe(200);
    const attestation = await client.authenticator.register(init.json.publicKey, { origin: baseURL! });
    const fin = await client.post(baseURL!, "/credentials/register/finalize", attestation);
    expect(fin.status).toBe(200);
    const login = await client.post(baseURL!, "/credentials/login/initialize");
    const assertion = await client.authenticator.login(login.json.publicKey, { origin: baseURL! });
    const done = await client.post(baseURL!, "/credentials/login/finalize", assertion);
    expect(done.status).toBe(200);
    expect(decodeJwt(done.json.token).sub).toBe(userId);
  });

  test("a ceremony started on one instance finishes on another sharing the database", async ({
    request,
    demo,
    baseURL,
  }, testInfo) => {
    const second = testInfo.project.metadata.secondInstanceURL as string | undefined;
    test.skip(!second, "needs two instances on one Postgres database (the postgres project)");
    const client = new PasskeyClient(request, demo.tenantId, demo.keys.passkey, baseURL!);
    const userId = `multi-${randomUUID()}`;
    const registered = await client.register(userId, baseURL!, second);
    expect(decodeJwt(registered).sub).toBe(userId);
    const loggedIn = await client.login(second!, baseURL!);
    expect(loggedIn.status).toBe(200);
    expect(decodeJwt(loggedIn.json.token).sub).toBe(userId);
  });
});
