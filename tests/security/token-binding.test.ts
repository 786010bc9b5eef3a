import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as metadataRoute from "@/app/(public-api)/t/[tenantId]/saml/metadata/route";
import * as acsRoute from "@/app/(public-api)/t/[tenantId]/saml/acs/route";
import * as ssoRoute from "@/app/(public-api)/t/[tenantId]/saml/sso/route";
import * as authRoute from "@/app/(public-api)/t/[tenantId]/thirdparty/auth/route";
import * as tokenRoute from "@/app/(public-api)/t/[tenantId]/token/route";
import { listAuditEvents } from "@/lib/audit";
import { executor } from "@/lib/db";
import { oneTimeTokens, sessions } from "@/lib/db/schema";
import type { FlowResponse } from "@/lib/flows";
import { createSamlProvider, SAML_BROWSER_COOKIE } from "@/lib/saml";
import type { Tenant } from "@/lib/tenants";
import { BROWSER_COOKIE, createProvider } from "@/lib/thirdparty";
import { configureWebhooks } from "@/lib/webhooks";
import {
  act,
  expectFlowError,
  expectState,
  sessionCookieOf,
  startFlow,
  type FlowCall,
} from "../helpers/flows";
import { call } from "../helpers/http";
import { identify, loginInit } from "../helpers/login";
import { followPeer, startOidcPeer, type OidcPeer } from "../helpers/oidc-peer";
import { TEST_CONTEXT, createPublicTenant, publicCall } from "../helpers/public-api";
import { createTestIdp, type TestIdp } from "../helpers/saml-idp";
import { REDIRECT_TO, browserCookie, callBack, startAt } from "../helpers/thirdparty";

/**
 * Issue 25, point 2 (and 9d): login CSRF with one-time tokens. An attacker signs in with their own account,
 * stops at the last redirect (`redirect_to?hanko_token=…`) and sends the link; the victim's page exchanges
 * any `?hanko_token=` on load. Every token is bound to the browser that started its sign-in (the flow's
 * code_verifier, or the start's binding cookie), so the victim's browser is refused at both exchanges
 * (`POST /token`, the flows' `exchange_token`), the refusal burns nothing, and the attacker's own browser
 * (the rightful one) still exchanges it.
 */

let peer: OidcPeer;
beforeAll(async () => {
  configureWebhooks({ allowPrivate: true });
  peer = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});

/** The victim's browser: a binding cookie of its own (it started sign-ins too) and a verifier of its own. */
const VICTIM = { thirdparty: "v".repeat(43), saml: "w".repeat(43), verifier: "x".repeat(64) };
const victimCookies = `${BROWSER_COOKIE}=${VICTIM.thirdparty}; ${SAML_BROWSER_COOKIE}=${VICTIM.saml}`;

async function tenantWithPeer(): Promise<Tenant> {
  const tenant = await createPublicTenant();
  await createProvider(
    tenant.id,
    {
      kind: "oidc",
      slug: "acme",
      displayName: "Acme",
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      options: { issuer: peer.issuer },
    },
    TEST_CONTEXT,
  );
  peer.account = { sub: `sub-${randomUUID()}`, email: `${randomUUID()}@example.com`, email_verified: true };
  return tenant;
}

const byApi = (tenant: Tenant, value: string, cookie?: string) =>
  publicCall(tokenRoute.POST, tenant, "POST", "/token", {
    body: { value },
    ...(cookie ? { headers: { cookie } } : {}),
  });

/** `exchange_token` in a `thirdparty` state (the token_exchange flow's unless given). */
async function byFlow(
  tenant: Tenant,
  value: string,
  browser: { cookie?: string; verifier?: string },
  state?: FlowResponse,
): Promise<FlowCall> {
  const at = state ?? expectState(await startFlow(tenant, "token_exchange"), "thirdparty");
  return act(
    tenant,
    at,
    "exchange_token",
    { token: value, ...(browser.verifier ? { code_verifier: browser.verifier } : {}) },
    browser.cookie ? { binding: browser.cookie } : {},
  );
}

async function sessionCount(tenant: Tenant): Promise<number> {
  const db = await executor();
  return (await db.select().from(sessions).where(eq(sessions.tenantId, tenant.id))).length;
}

async function tokenCount(tenant: Tenant): Promise<number> {
  const db = await executor();
  return (await db.select().from(oneTimeTokens).where(eq(oneTimeTokens.tenantId, tenant.id))).length;
}

/**
 * The victim's page exchanges the attacker's token: refused at `POST /token` (with the victim's cookies, and
 * with none) and at `exchange_token` (with the victim's cookies and verifier, with the verifier only, with
 * nothing), in the token_exchange flow and in `victimState` when given. No session starts, the token stays.
 */
async function expectRefusedInVictimBrowser(tenant: Tenant, value: string, victimState?: FlowResponse) {
  for (const cookie of [victimCookies, undefined]) {
    const res = await byApi(tenant, value, cookie);
    expect(res.status, await res.clone().text()).toBe(404);
    expect(res.headers.get("set-cookie")).toBeNull();
  }
  let state = victimState;
  for (const browser of [
    { cookie: victimCookies, verifier: VICTIM.verifier },
    { verifier: VICTIM.verifier },
    {},
  ]) {
    const refused = await byFlow(tenant, value, browser, state);
    const body = expectFlowError(refused, "form_data_invalid_error", 400, "thirdparty");
    expect(body.actions.exchange_token!.inputs.token!.error?.code).toBe("value_invalid_error");
    expect(sessionCookieOf(refused.res)).toBeUndefined();
    if (state) state = body;
  }
  expect(await sessionCount(tenant)).toBe(0);
  // Burns nothing: the token is still there for the browser that started the sign-in.
  expect(await tokenCount(tenant)).toBe(1);
  const failures = (await listAuditEvents(tenant.id, { limit: 50, type: "token.exchange.failed" })).items;
  expect(JSON.stringify(failures[0]?.details)).toMatch(/another browser/);
}

/** The third-party sign-in a start began (its answer or redirect URL, and the binding cookie it set). */
async function thirdPartyToken(tenant: Tenant, start: { location: string; cookie: string | undefined }) {
  expect(start.cookie).toBeTruthy();
  const res = await callBack(tenant, await followPeer(start.location), start.cookie);
  expect(res.status, await res.clone().text()).toBe(302);
  const value = new URL(res.headers.get("location")!).searchParams.get("hanko_token");
  expect(value).toBeTruthy();
  return { cookie: `${BROWSER_COOKIE}=${start.cookie}`, value: value! };
}

/** A start route's answer: the provider's URL and the cookie. */
async function routeStart(res: Response) {
  expect(res.status, await res.clone().text()).toBe(302);
  return { location: res.headers.get("location")!, cookie: browserCookie(res) };
}

/** A flow's `thirdparty_oauth` answer: the provider's URL and the cookie. */
function flowStart(started: FlowCall) {
  const state = expectState(started, "thirdparty");
  return {
    state,
    location: (state.payload as { redirect_url: string }).redirect_url,
    cookie: browserCookie(started.res),
  };
}

describe("security 3.2: one-time tokens are bound to the browser that started the sign-in", () => {
  it("security 3.2: a token of another browser's third-party sign-in by plain URL is refused at POST /token and exchange_token, burns nothing, and its own browser exchanges it", async () => {
    const tenant = await tenantWithPeer();
    const attacker = await thirdPartyToken(tenant, await routeStart(await startAt(tenant, "acme")));
    await expectRefusedInVictimBrowser(tenant, attacker.value);
    const done = await byFlow(tenant, attacker.value, { cookie: attacker.cookie });
    expectState(done, "success");
    expect(sessionCookieOf(done.res)).toBeDefined();
  });

  it("security 3.2: a token of another browser's deprecated /thirdparty/auth sign-in is refused, and its own browser exchanges it at POST /token", async () => {
    const tenant = await tenantWithPeer();
    const start = await publicCall(
      authRoute.GET,
      tenant,
      "GET",
      `/thirdparty/auth?provider=Acme&redirect_to=${encodeURIComponent(REDIRECT_TO)}`,
    );
    const attacker = await thirdPartyToken(tenant, await routeStart(start));
    await expectRefusedInVictimBrowser(tenant, attacker.value);
    const res = await byApi(tenant, attacker.value, attacker.cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await sessionCount(tenant)).toBe(1);
  });

  it("security 3.2: a token of another browser's flow thirdparty_oauth without a code_verifier is refused in the victim's own thirdparty state; the starting browser exchanges it by its cookie", async () => {
    const tenant = await tenantWithPeer();
    const start = flowStart(
      await act(tenant, await loginInit(tenant), "thirdparty_oauth", {
        provider: "acme",
        redirect_to: REDIRECT_TO,
      }),
    );
    const attacker = await thirdPartyToken(tenant, start);
    // The victim clicked a provider button too (its own flow, cookie and verifier), then opens the link.
    const victim = expectState(
      await act(tenant, await loginInit(tenant), "thirdparty_oauth", {
        provider: "acme",
        redirect_to: REDIRECT_TO,
        code_verifier: VICTIM.verifier,
      }),
      "thirdparty",
    );
    await expectRefusedInVictimBrowser(tenant, attacker.value, victim);
    const done = await byFlow(tenant, attacker.value, { cookie: attacker.cookie }, start.state);
    expectState(done, "success");
  });

  it("security 3.2: a token of another browser's flow thirdparty_oauth with a code_verifier is refused; the starting browser exchanges it by its verifier or by its cookie", async () => {
    const tenant = await tenantWithPeer();
    const verifier = "a".repeat(64);
    const signIn = async () => {
      const start = flowStart(
        await act(tenant, await loginInit(tenant), "thirdparty_oauth", {
          provider: "acme",
          redirect_to: REDIRECT_TO,
          code_verifier: verifier,
        }),
      );
      return { state: start.state, ...(await thirdPartyToken(tenant, start)) };
    };
    const first = await signIn();
    await expectRefusedInVictimBrowser(tenant, first.value);
    // As Hanko's elements do: the verifier from sessionStorage (the cookie may be blocked).
    expectState(await byFlow(tenant, first.value, { verifier }, first.state), "success");
    // A browser that lost the verifier (another tab of the same browser) proves itself by its cookie.
    const second = await signIn();
    const res = await byApi(tenant, second.value, second.cookie);
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

describe("security 3.2: SAML tokens are bound to the browser whose cookie the ACS checked", () => {
  interface Saml {
    tenant: Tenant;
    idp: TestIdp;
    spMetadata: string;
  }

  async function samlTenant(): Promise<Saml> {
    const tenant = await createPublicTenant();
    const idp = await createTestIdp();
    await createSamlProvider(
      tenant.id,
      { name: "Acme", domains: ["acme.test"], metadata_xml: idp.metadataXml },
      TEST_CONTEXT,
    );
    const metadata = await call(metadataRoute.GET, `/t/${tenant.id}/saml/metadata`, {
      params: { tenantId: tenant.id },
    });
    return { tenant, idp, spMetadata: await metadata.text() };
  }

  /** Follows an SSO URL (`/saml/sso?…`) in a fresh browser through the IdP to the ACS: cookie and token. */
  async function throughIdp(s: Saml, ssoUrl: string) {
    const url = new URL(ssoUrl);
    const start = await call(ssoRoute.GET, `${url.pathname}${url.search}`, {
      params: { tenantId: s.tenant.id },
    });
    expect(start.status, await start.clone().text()).toBe(302);
    const value = new RegExp(`^${SAML_BROWSER_COOKIE}=([^;]+)`).exec(
      start.headers.get("set-cookie") ?? "",
    )?.[1];
    expect(value).toBeTruthy();
    const request = s.idp.readRequest(start.headers.get("location")!);
    const SAMLResponse = await s.idp.respond(s.spMetadata, request, {
      nameId: `n-${randomUUID()}`,
      attributes: { email: `${randomUUID()}@acme.test` },
    });
    const cookie = `${SAML_BROWSER_COOKIE}=${value}`;
    const acs = await call(acsRoute.POST, `/t/${s.tenant.id}/saml/acs`, {
      method: "POST",
      params: { tenantId: s.tenant.id },
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ SAMLResponse, RelayState: "" }).toString(),
    });
    expect(acs.status, await acs.clone().text()).toBe(302);
    const token = new URL(acs.headers.get("location")!).searchParams.get("hanko_token");
    expect(token, acs.headers.get("location")!).toBeTruthy();
    return { cookie, value: token! };
  }

  it("security 3.2: a token of another browser's SAML sign-in (/saml/sso → /saml/acs) is refused at both exchanges, and its own browser exchanges it", async () => {
    const s = await samlTenant();
    const ssoUrl = `http://localhost/t/${s.tenant.id}/saml/sso?domain=acme.test&redirect_to=${encodeURIComponent(REDIRECT_TO)}`;
    const attacker = await throughIdp(s, ssoUrl);
    await expectRefusedInVictimBrowser(s.tenant, attacker.value);
    const res = await byApi(s.tenant, attacker.value, attacker.cookie);
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("security 3.2: the flow's SSO routing hands out a URL whose token only the browser that followed it exchanges (Hanko's elements send no verifier there)", async () => {
    const s = await samlTenant();
    const routed = async () => {
      const state = expectState(
        await identify(s.tenant, await loginInit(s.tenant), "kim@acme.test"),
        "thirdparty",
      );
      return { state, url: (state.payload as { redirect_url: string }).redirect_url };
    };
    const attacker = await routed();
    expect(attacker.url).toContain(`/t/${s.tenant.id}/saml/sso?domain=acme.test`);
    const token = await throughIdp(s, attacker.url);
    // The victim typed an SSO address too and is in its own `thirdparty` state when the link loads.
    const victim = await routed();
    await expectRefusedInVictimBrowser(s.tenant, token.value, victim.state);
    // The browser that followed the URL: its SAML cookie, no code_verifier (as <hanko-auth> 2.7.0 sends).
    const done = await byFlow(s.tenant, token.value, { cookie: token.cookie }, attacker.state);
    expectState(done, "success");
    expect(sessionCookieOf(done.res)).toBeDefined();
  });
});
