import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as token from "@/app/(public-api)/t/[tenantId]/token/route";
import { findIdentity } from "@/lib/identities";
import type { Tenant } from "@/lib/tenants";
import { createProvider } from "@/lib/thirdparty";
import { configureWebhooks } from "@/lib/webhooks";
import { startOAuth2Peer, type OAuth2Peer } from "../helpers/oauth2-peer";
import {
  createPublicTenant,
  createUserWithEmail,
  publicCall,
  TEST_CONTEXT,
  validateSessionCookie,
} from "../helpers/public-api";
import { bindingCookie } from "../helpers/token-binding";
import { authorizeAtPeer, callBack, REDIRECT_TO, signInThroughPeer } from "../helpers/thirdparty";

let peer: OAuth2Peer;
beforeAll(async () => {
  configureWebhooks({ allowPrivate: true });
  peer = await startOAuth2Peer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});
afterEach(() => {
  peer.refuseWith = undefined;
});

let ids = 1000;
function nextAccount(emails: { email: string; primary: boolean; verified: boolean }[]) {
  ids += 1;
  peer.account = { id: ids, login: `octo${ids}`, name: "Octo Cat", email: null, emails };
  return peer.account;
}

async function githubTenant(allowLinking = false) {
  const tenant = await createPublicTenant();
  await createProvider(
    tenant.id,
    {
      kind: "github",
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      options: peer.endpoints,
      allowLinking,
    },
    TEST_CONTEXT,
  );
  return tenant;
}

/** POST /token in the test's browser (the binding cookie its sign-ins started with). */
const exchange = (tenant: Tenant, value: string) =>
  publicCall(token.POST, tenant, "POST", "/token", { body: { value }, headers: { cookie: bindingCookie() } });

describe("third-party sign-in with a GitHub-shaped OAuth 2.0 provider", () => {
  it("signs up with the primary verified address from /user/emails", async () => {
    const tenant = await githubTenant();
    const address = `octo.${Date.now()}@example.com`;
    const account = nextAccount([
      { email: `old.${Date.now()}@example.com`, primary: false, verified: true },
      { email: address, primary: true, verified: true },
    ]);
    const { location } = await signInThroughPeer(tenant, "github");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_TO);
    // PKCE: S256 challenge sent, verifier checked by the peer; no nonce without OIDC.
    const authorization = peer.authorizations.at(-1)!;
    expect(authorization.get("code_challenge_method")).toBe("S256");
    expect(authorization.get("nonce")).toBeNull();
    expect(authorization.get("scope")).toBe("read:user user:email");
    expect(peer.tokenRequests.at(-1)!.get("code_verifier")).toBeTruthy();
    const session = await exchange(tenant, location.searchParams.get("hanko_token")!);
    expect(session.status, await session.clone().text()).toBe(200);
    expect((await validateSessionCookie(tenant, session)).session).toMatchObject({
      claims: { amr: ["ext:github"], email: { address, is_verified: true } },
    });
    const identity = await findIdentity(tenant.id, {
      kind: "oauth",
      providerId: "github",
      subject: String(account.id),
    });
    expect(identity).toMatchObject({ email: address, emailVerified: true });
  });

  it("treats an account without a verified address as unverified: no link to an existing user", async () => {
    const tenant = await githubTenant(true);
    const address = `victim.${Date.now()}@example.com`;
    await createUserWithEmail(tenant, address);
    nextAccount([{ email: address, primary: true, verified: false }]);
    const { location } = await signInThroughPeer(tenant, "github");
    expect(location.searchParams.get("error")).toBe("unverified_email");
  });

  it("links by a verified address when linking is on", async () => {
    const tenant = await githubTenant(true);
    const address = `linked.${Date.now()}@example.com`;
    const user = await createUserWithEmail(tenant, address);
    nextAccount([{ email: address, primary: true, verified: true }]);
    const { location } = await signInThroughPeer(tenant, "github");
    expect(await (await exchange(tenant, location.searchParams.get("hanko_token")!)).json()).toEqual({
      user_id: user.id,
    });
  });

  it("user cancels: error=access_denied", async () => {
    const tenant = await githubTenant();
    nextAccount([{ email: `c.${Date.now()}@example.com`, primary: true, verified: true }]);
    peer.refuseWith = "access_denied";
    const { location } = await signInThroughPeer(tenant, "github");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("hanko_token")).toBeNull();
  });

  it("a wrong client secret is the provider's error", async () => {
    const tenant = await createPublicTenant();
    await createProvider(
      tenant.id,
      { kind: "github", clientId: peer.clientId, clientSecret: "wrong-secret", options: peer.endpoints },
      TEST_CONTEXT,
    );
    nextAccount([{ email: `w.${Date.now()}@example.com`, primary: true, verified: true }]);
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "github");
    const res = await callBack(tenant, callbackUrl, cookie);
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("error_description")).toMatch(/invalid_client/);
    expect(location.toString()).not.toContain("wrong-secret");
  });

  it("a custom oauth2 provider maps user-info fields", async () => {
    const tenant = await createPublicTenant();
    await createProvider(
      tenant.id,
      {
        kind: "oauth2",
        slug: "hub",
        clientId: peer.clientId,
        clientSecret: peer.clientSecret,
        options: {
          authorizationEndpoint: peer.endpoints.authorizationEndpoint,
          tokenEndpoint: peer.endpoints.tokenEndpoint,
          userinfoEndpoint: peer.endpoints.userinfoEndpoint,
          mapping: { sub: "login", email: "email", name: "name" },
          emailsVerified: true,
        },
      },
      TEST_CONTEXT,
    );
    const address = `mapped.${Date.now()}@example.com`;
    const account = nextAccount([]);
    account.email = address;
    const { location } = await signInThroughPeer(tenant, "hub");
    expect(location.searchParams.get("hanko_token"), location.toString()).toBeTruthy();
    const identity = await findIdentity(tenant.id, {
      kind: "oauth",
      providerId: "hub",
      subject: account.login,
    });
    expect(identity).toMatchObject({ email: address, emailVerified: true });
  });
});
