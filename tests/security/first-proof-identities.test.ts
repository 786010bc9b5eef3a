import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as acsRoute from "@/app/(public-api)/t/[tenantId]/saml/acs/route";
import * as metadataRoute from "@/app/(public-api)/t/[tenantId]/saml/metadata/route";
import * as ssoRoute from "@/app/(public-api)/t/[tenantId]/saml/sso/route";
import * as finalizeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/finalize/route";
import * as initializeRoute from "@/app/(public-api)/t/[tenantId]/passcode/login/initialize/route";
import * as tokenRoute from "@/app/(public-api)/t/[tenantId]/token/route";
import * as usersRoute from "@/app/(public-api)/t/[tenantId]/users/route";
import { queryAuditLogs } from "@/lib/audit-logs";
import { executor } from "@/lib/db";
import { identities } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { createSamlProvider } from "@/lib/saml";
import type { Tenant } from "@/lib/tenants";
import { createProvider } from "@/lib/thirdparty";
import { configureWebhooks } from "@/lib/webhooks";
import { act, expectState, startFlow } from "../helpers/flows";
import { call } from "../helpers/http";
import { identify, loginInit } from "../helpers/login";
import { startOAuth2Peer, type OAuth2Peer } from "../helpers/oauth2-peer";
import { followPeer, startOidcPeer, type OidcPeer } from "../helpers/oidc-peer";
import { TEST_CONTEXT, createPasscodeTenant, publicCall, useDevOutbox } from "../helpers/public-api";
import { createTestIdp } from "../helpers/saml-idp";
import { outboxCode } from "../helpers/smtp";
import { REDIRECT_TO, browserCookie, callBack, signInThroughPeer } from "../helpers/thirdparty";
import { bindingCookie } from "../helpers/token-binding";

// Issue 25, point 1: a stranger's third-party identity must not survive the first proof of the address
// it was set up on (tenants that do not require verification).

useDevOutbox();

let github: OAuth2Peer;
let oidc: OidcPeer;
beforeAll(async () => {
  configureWebhooks({ allowPrivate: true });
  github = await startOAuth2Peer();
  oidc = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await github.close();
  await oidc.close();
});

/** A tenant that does not require verification, with a GitHub provider and a custom OIDC one (`acme`). */
async function laxTenant(): Promise<Tenant> {
  const tenant = await createPasscodeTenant({ platform: { emails: { requireVerification: false } } });
  await createProvider(
    tenant.id,
    {
      kind: "github",
      clientId: github.clientId,
      clientSecret: github.clientSecret,
      options: github.endpoints,
    },
    TEST_CONTEXT,
  );
  await createProvider(
    tenant.id,
    {
      kind: "oidc",
      slug: "acme",
      displayName: "Acme",
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      options: { issuer: oidc.issuer },
    },
    TEST_CONTEXT,
  );
  return tenant;
}

/** Signs in at the provider and exchanges the one-time token: the user id it signs in, or the error. */
async function providerSignIn(tenant: Tenant, provider: string) {
  const { location } = await signInThroughPeer(tenant, provider);
  const token = location.searchParams.get("hanko_token");
  if (!token) return { error: location.searchParams.get("error") };
  // In the browser that started the sign-in (its binding cookie): the token is bound to it.
  const res = await publicCall(tokenRoute.POST, tenant, "POST", "/token", {
    body: { value: token },
    headers: { cookie: bindingCookie() },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { userId: ((await res.json()) as { user_id: string }).user_id };
}

async function identityRows(tenant: Tenant, userId: string) {
  const db = await executor();
  return db
    .select()
    .from(identities)
    .where(and(eq(identities.tenantId, tenant.id), eq(identities.userId, userId)));
}

async function removalDetails(tenant: Tenant) {
  const { entries } = await queryAuditLogs(tenant.id, { types: ["user.unproven_access_removed"] });
  return entries.map((entry) => entry.details as { identities?: { kind: string; provider: string }[] });
}

/** The address's owner logs in with a mailed code through the login flow (no session of the account). */
async function ownerLogsInWithCode(tenant: Tenant, address: string): Promise<FlowResponse> {
  let state = (await identify(tenant, await loginInit(tenant), address)).body;
  if (state.name === "login_method_chooser") {
    state = (await act(tenant, state, "continue_to_passcode_confirmation")).body;
  }
  expect(state.name).toBe("passcode_confirmation");
  return expectState(
    await act(tenant, state, "verify_passcode", { code: await outboxCode(tenant.id, address) }),
    "success",
  );
}

describe("security 3.1: the first proof of an address removes third-party identities set up before it", () => {
  it("security 3.1: a GitHub account asserting the victim's address unverified loses the account at the owner's first code login", async () => {
    const tenant = await laxTenant();
    const victim = `${randomUUID()}@example.com`;
    // The attacker's GitHub account has the victim's address as its unverified primary.
    github.account = {
      id: Math.floor(Math.random() * 1e9),
      login: "mallory",
      name: null,
      email: null,
      emails: [{ email: victim, primary: true, verified: false }],
    };
    const first = await providerSignIn(tenant, "github");
    expect(first.userId).toBeDefined();
    expect(await identityRows(tenant, first.userId!)).toHaveLength(1);

    const done = await ownerLogsInWithCode(tenant, victim);
    expect((done.payload as { user: { user_id: string } }).user.user_id).toBe(first.userId);
    expect(await identityRows(tenant, first.userId!)).toEqual([]);
    expect(await removalDetails(tenant)).toEqual([
      expect.objectContaining({
        identities: [expect.objectContaining({ kind: "oauth", provider: "github" })],
      }),
    ]);

    // The attacker signs in at GitHub again: no longer the owner's account (the address is now proven
    // and GitHub does not vouch for it).
    const again = await providerSignIn(tenant, "github");
    expect(again).toEqual({ error: "unverified_email" });
    expect(await identityRows(tenant, first.userId!)).toEqual([]);
  });

  it("security 3.1: a provider account connected from the profile of a sign-up with the victim's address is removed by the owner's first code", async () => {
    const tenant = await laxTenant();
    const victim = `${randomUUID()}@example.com`;
    // The attacker signs up with the victim's address (no verification asked) and gets a session.
    const signUp = await publicCall(usersRoute.POST, tenant, "POST", "/users", { body: { email: victim } });
    expect(signUp.status).toBe(200);
    const { user_id: userId } = (await signUp.json()) as { user_id: string };
    const cookie = signUp.headers.get("set-cookie")!;
    const session = cookie.slice("hanko=".length, cookie.indexOf(";"));

    // ... then connects their own provider account from the profile (linkIdentity).
    oidc.account = {
      sub: `sub-${randomUUID()}`,
      email: `${randomUUID()}@mallory.example`,
      email_verified: true,
    };
    const preflight = expectState(await startFlow(tenant, "profile", { token: session }), "preflight");
    const profile = expectState(
      await act(
        tenant,
        preflight,
        "register_client_capabilities",
        { webauthn_available: true },
        { token: session },
      ),
      "profile_init",
    );
    const started = await act(
      tenant,
      profile,
      "connect_thirdparty_oauth_provider",
      { provider: "acme", redirect_to: REDIRECT_TO },
      { token: session },
    );
    const thirdparty = expectState(started, "thirdparty");
    const redirectUrl = (thirdparty.payload as { redirect_url: string }).redirect_url;
    const back = await callBack(tenant, await followPeer(redirectUrl), browserCookie(started.res));
    expect(back.status).toBe(302);
    expect(await identityRows(tenant, userId)).toHaveLength(1);
    expect(await providerSignIn(tenant, "acme")).toEqual({ userId });

    // The owner logs in with a code (POST /passcode/login/initialize + finalize, no session).
    const init = await publicCall(initializeRoute.POST, tenant, "POST", "/passcode/login/initialize", {
      body: { user_id: userId },
    });
    expect(init.status).toBe(200);
    const { id } = (await init.json()) as { id: string };
    const finalized = await publicCall(finalizeRoute.POST, tenant, "POST", "/passcode/login/finalize", {
      body: { id, code: await outboxCode(tenant.id, victim) },
    });
    expect(finalized.status, await finalized.clone().text()).toBe(200);
    expect(await identityRows(tenant, userId)).toEqual([]);
    expect(await removalDetails(tenant)).toEqual([
      expect.objectContaining({ identities: [expect.objectContaining({ kind: "oauth", provider: "acme" })] }),
    ]);

    // The attacker's provider account now signs in (or up) anyone but the owner.
    const again = await providerSignIn(tenant, "acme");
    expect(again.userId).toBeDefined();
    expect(again.userId).not.toBe(userId);
  });

  it("security 3.1: a SAML identity asserting an address outside the IdP's domains is removed by the owner's first code", async () => {
    const tenant = await laxTenant();
    const idp = await createTestIdp();
    await createSamlProvider(
      tenant.id,
      { name: "Acme", domains: ["acme.test"], metadata_xml: idp.metadataXml },
      TEST_CONTEXT,
    );
    const params = { tenantId: tenant.id };
    const spMetadata = await (
      await call(metadataRoute.GET, `/t/${tenant.id}/saml/metadata`, { params })
    ).text();
    const victim = `${randomUUID()}@elsewhere.test`;
    /** One SAML sign-in of the IdP's account `mallory` asserting the victim's address: the callback's URL. */
    const samlSignIn = async () => {
      const started = await call(
        ssoRoute.GET,
        `/t/${tenant.id}/saml/sso?domain=acme.test&redirect_to=${REDIRECT_TO}`,
        {
          params,
        },
      );
      expect(started.status).toBe(302);
      const binding = /^sesame_saml=([^;]+)/.exec(started.headers.get("set-cookie") ?? "")![1]!;
      const request = idp.readRequest(started.headers.get("location")!);
      const SAMLResponse = await idp.respond(spMetadata, request, {
        nameId: "mallory",
        attributes: { email: victim },
      });
      const res = await call(acsRoute.POST, `/t/${tenant.id}/saml/acs`, {
        method: "POST",
        params,
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `sesame_saml=${binding}` },
        body: new URLSearchParams({ SAMLResponse, RelayState: "" }).toString(),
      });
      expect(res.status).toBe(302);
      return { location: new URL(res.headers.get("location")!), binding };
    };

    const first = await samlSignIn();
    const token = first.location.searchParams.get("hanko_token");
    expect(token, first.location.toString()).toBeTruthy();
    const exchanged = await publicCall(tokenRoute.POST, tenant, "POST", "/token", {
      body: { value: token },
      headers: { cookie: `sesame_saml=${first.binding}` },
    });
    expect(exchanged.status, await exchanged.clone().text()).toBe(200);
    const { user_id: userId } = (await exchanged.json()) as { user_id: string };
    expect(await identityRows(tenant, userId)).toHaveLength(1);

    await ownerLogsInWithCode(tenant, victim);
    expect(await identityRows(tenant, userId)).toEqual([]);
    expect(await removalDetails(tenant)).toEqual([
      expect.objectContaining({ identities: [expect.objectContaining({ kind: "saml" })] }),
    ]);
    const { location: again } = await samlSignIn();
    expect(again.searchParams.get("hanko_token")).toBeNull();
    expect(again.searchParams.get("error")).toBe("unverified_email");
  });
});
