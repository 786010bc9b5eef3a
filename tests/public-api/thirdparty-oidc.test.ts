import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as authRoute from "@/app/(public-api)/t/[tenantId]/thirdparty/auth/route";
import * as callbackRoute from "@/app/(public-api)/t/[tenantId]/thirdparty/callback/route";
import * as token from "@/app/(public-api)/t/[tenantId]/token/route";
import { seal, sha256Hex } from "@/lib/crypto";
import { executor } from "@/lib/db";
import { thirdPartyStates, users } from "@/lib/db/schema";
import { findIdentity, listIdentities } from "@/lib/identities";
import type { Tenant } from "@/lib/tenants";
import { BROWSER_COOKIE, createProvider, startThirdPartySignIn, updateProvider } from "@/lib/thirdparty";
import { configureWebhooks } from "@/lib/webhooks";
import { followPeer, startOidcPeer, type OidcPeer } from "../helpers/oidc-peer";
import { auditEvents } from "../helpers/passkey-security";
import {
  createPublicTenant,
  createUserWithEmail,
  expectPublicError,
  publicCall,
  TEST_CONTEXT,
  validateSessionCookie,
} from "../helpers/public-api";
import { bindingCookie } from "../helpers/token-binding";
import {
  authorizeAtPeer,
  browserCookie,
  callBack,
  REDIRECT_TO,
  signInThroughPeer,
  startAt,
} from "../helpers/thirdparty";

let peer: OidcPeer;

beforeAll(async () => {
  // Loopback peers, as webhooks allow them with SESAME_WEBHOOKS_ALLOW_PRIVATE=true.
  configureWebhooks({ allowPrivate: true });
  peer = await startOidcPeer();
});
afterAll(async () => {
  configureWebhooks(undefined);
  await peer.close();
});
afterEach(() => {
  peer.refuseWith = undefined;
  peer.tamperIdToken = undefined;
});

let accounts = 0;
/** A fresh account at the peer for each test (the tests share the peer). */
function nextAccount(overrides: { email?: string; email_verified?: boolean } = {}) {
  accounts += 1;
  peer.account = {
    sub: `acme-${accounts}-${Date.now()}`,
    email: `user${accounts}.${Date.now()}@example.com`,
    email_verified: true,
    name: "Ada",
    ...overrides,
  };
  return peer.account;
}

async function tenantWithPeer(
  settings: { allowLinking?: boolean; kind?: "oidc" | "google"; storeTokens?: boolean } = {},
) {
  const tenant = await createPublicTenant();
  const kind = settings.kind ?? "oidc";
  await createProvider(
    tenant.id,
    {
      kind,
      ...(kind === "oidc" ? { slug: "acme" } : {}),
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
      options: { issuer: peer.issuer },
      allowLinking: settings.allowLinking ?? false,
      storeTokens: settings.storeTokens ?? false,
    },
    TEST_CONTEXT,
  );
  return tenant;
}

/** POST /token in the test's browser (the binding cookie its sign-ins started with). */
const exchange = (tenant: Tenant, value: string) =>
  publicCall(token.POST, tenant, "POST", "/token", { body: { value }, headers: { cookie: bindingCookie() } });

/** Expects a redirect to `redirect_to` with Hanko's error query and no token; answers the query. */
async function expectErrorRedirect(res: Response, error: string, description?: RegExp) {
  expect(res.status, await res.clone().text()).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_TO);
  expect(location.searchParams.get("hanko_token")).toBeNull();
  expect(location.searchParams.get("error")).toBe(error);
  if (description) expect(location.searchParams.get("error_description")).toMatch(description);
  return location.searchParams;
}

async function userCount(tenantId: string) {
  const db = await executor();
  return (await db.select().from(users).where(eq(users.tenantId, tenantId))).length;
}

describe("third-party sign-in with an OpenID Connect provider", () => {
  it("signs up on the first sign-in with PKCE, state and nonce, and the one-time token becomes a session", async () => {
    const tenant = await tenantWithPeer();
    const account = nextAccount();
    const { start, cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    // The cookie: HttpOnly, Lax, on every path (the token exchange checks it too).
    const setCookie = start.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(
      new RegExp(`${BROWSER_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax`),
    );
    expect(start.headers.get("location")).not.toContain(peer.clientSecret);
    // PKCE S256 and a nonce on the authorization request; the verifier on the token request.
    const authorization = peer.authorizations.at(-1)!;
    expect(authorization.get("code_challenge_method")).toBe("S256");
    expect(authorization.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.get("nonce")).toBeTruthy();
    expect(authorization.get("state")).toBeTruthy();
    expect(authorization.get("redirect_uri")).toBe(
      `http://localhost:3000/t/${tenant.id}/thirdparty/callback`,
    );
    // Only the state's hash is stored.
    const db = await executor();
    const [state] = await db.select().from(thirdPartyStates).where(eq(thirdPartyStates.tenantId, tenant.id));
    expect(state!.stateHash).toBe(sha256Hex(authorization.get("state")!));
    expect(JSON.stringify(state)).not.toContain(authorization.get("nonce"));

    const res = await callBack(tenant, callbackUrl, cookie);
    expect(res.status, await res.clone().text()).toBe(302);
    expect(peer.tokenRequests.at(-1)!.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_TO);
    const value = location.searchParams.get("hanko_token");
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await exchange(tenant, value!);
    expect(session.status, await session.clone().text()).toBe(200);
    expect((await validateSessionCookie(tenant, session)).session).toMatchObject({
      is_valid: true,
      claims: { amr: ["ext:acme"], email: { address: account.email, is_verified: true } },
    });
    const identity = await findIdentity(tenant.id, {
      kind: "oauth",
      providerId: "acme",
      subject: account.sub,
    });
    expect(identity).toMatchObject({ email: account.email, emailVerified: true, tokensSealed: null });
    expect(identity!.claims).toMatchObject({ name: "Ada" });
    const [succeeded] = await auditEvents(tenant.id, "thirdparty.signin.succeeded");
    expect(succeeded).toMatchObject({ details: { provider: "acme", outcome: "signed_up" } });
    // The state is gone: used once.
    expect(await db.select().from(thirdPartyStates).where(eq(thirdPartyStates.tenantId, tenant.id))).toEqual(
      [],
    );
  });

  it("signs the same user in again", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const first = await signInThroughPeer(tenant, "acme");
    const discoveries = peer.discoveries;
    expect(discoveries).toBeGreaterThan(0);
    const second = await signInThroughPeer(tenant, "acme");
    // The issuer's discovery document is kept for a while: a start (anyone may make one) fetches nothing.
    expect(peer.discoveries).toBe(discoveries);
    const a = await (await exchange(tenant, first.location.searchParams.get("hanko_token")!)).json();
    const b = await (await exchange(tenant, second.location.searchParams.get("hanko_token")!)).json();
    expect(a).toEqual(b);
    expect(await userCount(tenant.id)).toBe(1);
    const outcomes = (await auditEvents(tenant.id, "thirdparty.signin.succeeded")).map(
      (event) => (event.details as { outcome: string }).outcome,
    );
    expect(outcomes.sort()).toEqual(["signed_in", "signed_up"]);
  });

  it("stands in for Google through an issuer override (amr ext:google)", async () => {
    const tenant = await tenantWithPeer({ kind: "google" });
    nextAccount();
    const { location } = await signInThroughPeer(tenant, "google");
    const session = await exchange(tenant, location.searchParams.get("hanko_token")!);
    expect((await validateSessionCookie(tenant, session)).session).toMatchObject({
      claims: { amr: ["ext:google"] },
    });
  });

  it("keeps the provider's tokens, sealed, only when the provider says so", async () => {
    const tenant = await tenantWithPeer({ storeTokens: true });
    const account = nextAccount();
    await signInThroughPeer(tenant, "acme");
    const identity = await findIdentity(tenant.id, {
      kind: "oauth",
      providerId: "acme",
      subject: account.sub,
    });
    expect(identity!.tokensSealed).toMatch(/^v1\./);
  });

  it("answers the deprecated GET /thirdparty/auth the same way", async () => {
    const tenant = await tenantWithPeer();
    const res = await publicCall(
      authRoute.GET,
      tenant,
      "GET",
      `/thirdparty/auth?provider=acme&redirect_to=${encodeURIComponent(REDIRECT_TO)}`,
    );
    expect(res.status, await res.clone().text()).toBe(302);
    expect(res.headers.get("location")).toContain(`${peer.issuer}/auth?`);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(browserCookie(res)).toBeTruthy();
  });

  it("accepts the answer as a form post (response_mode=form_post)", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    const res = await publicCall(callbackRoute.POST, tenant, "POST", "/thirdparty/callback", {
      body: callbackUrl.searchParams.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${BROWSER_COOKIE}=${cookie}` },
    });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("hanko_token")).toBeTruthy();
  });
});

describe("state", () => {
  it("is single use: a replayed callback is a 400 (nowhere safe to redirect)", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    expect((await callBack(tenant, callbackUrl, cookie)).status).toBe(302);
    await expectPublicError(await callBack(tenant, callbackUrl, cookie), 400, /state/i, ["location"]);
    const failed = await auditEvents(tenant.id, "thirdparty.signin.failed");
    expect(failed[0]).toMatchObject({ details: { step: "callback" } });
  });

  it("refuses an unknown state and a missing one", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    const forged = new URL(callbackUrl);
    forged.searchParams.set("state", "forged-state");
    await expectPublicError(await callBack(tenant, forged, cookie), 400, /state/i, ["location"]);
    const none = new URL(callbackUrl);
    none.searchParams.delete("state");
    await expectPublicError(await callBack(tenant, none, cookie), 400, /state/i, ["location"]);
    // The real state is still usable.
    expect(
      new URL((await callBack(tenant, callbackUrl, cookie)).headers.get("location")!).searchParams.get(
        "hanko_token",
      ),
    ).toBeTruthy();
  });

  it("is bound to the browser: no cookie, or another browser's cookie, fails (and burns the state)", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const victim = await authorizeAtPeer(tenant, "acme");
    await expectErrorRedirect(
      await callBack(tenant, victim.callbackUrl),
      "invalid_request",
      /another browser/,
    );
    const attacker = await authorizeAtPeer(tenant, "acme", REDIRECT_TO, null);
    const other = await authorizeAtPeer(tenant, "acme", REDIRECT_TO, null);
    expect(attacker.cookie).not.toBe(other.cookie);
    await expectErrorRedirect(await callBack(tenant, other.callbackUrl, attacker.cookie), "invalid_request");
    await expectPublicError(await callBack(tenant, other.callbackUrl, other.cookie), 400);
    expect(await userCount(tenant.id)).toBe(0);
  });

  it("reuses the browser's cookie for a second start (two tabs)", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const first = await startAt(tenant, "acme");
    const cookie = browserCookie(first)!;
    const second = await startAt(tenant, "acme", REDIRECT_TO, cookie);
    expect(browserCookie(second)).toBe(cookie);
    const callbackUrl = await followPeer(first.headers.get("location")!);
    expect(
      new URL((await callBack(tenant, callbackUrl, cookie)).headers.get("location")!).searchParams.get(
        "hanko_token",
      ),
    ).toBeTruthy();
  });

  it("expires", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    const db = await executor();
    await db
      .update(thirdPartyStates)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(thirdPartyStates.tenantId, tenant.id));
    await expectErrorRedirect(await callBack(tenant, callbackUrl, cookie), "invalid_request", /expired/);
  });

  it("belongs to its tenant: another tenant's callback refuses it and leaves it", async () => {
    const tenant = await tenantWithPeer();
    const other = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    await expectPublicError(await callBack(other, callbackUrl, cookie), 400, /state/i, ["location"]);
    expect(
      new URL((await callBack(tenant, callbackUrl, cookie)).headers.get("location")!).searchParams.get(
        "hanko_token",
      ),
    ).toBeTruthy();
  });

  it("carries the PKCE verifier: a different one is refused by the provider", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
    const stateHash = sha256Hex(callbackUrl.searchParams.get("state")!);
    const db = await executor();
    const [row] = await db.select().from(thirdPartyStates).where(eq(thirdPartyStates.stateHash, stateHash));
    const nonce = peer.authorizations.at(-1)!.get("nonce");
    const wrong = seal(
      JSON.stringify({ verifier: "x".repeat(43), nonce }),
      "third-party-state",
      `${tenant.id}/${stateHash}`,
    );
    await db.update(thirdPartyStates).set({ secretsSealed: wrong }).where(eq(thirdPartyStates.id, row!.id));
    await expectErrorRedirect(
      await callBack(tenant, callbackUrl, cookie),
      "invalid_request",
      /invalid_grant/,
    );
    expect(await userCount(tenant.id)).toBe(0);
  });
});

describe("ID token checks", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, NonNullable<OidcPeer["tamperIdToken"]>][] = [
    ["a nonce mismatch", (claims, sign) => sign({ ...claims, nonce: "not-the-nonce" })],
    ["a wrong audience", (claims, sign) => sign({ ...claims, aud: "another-client" })],
    ["an expired token", (claims, sign) => sign({ ...claims, iat: now() - 7200, exp: now() - 3600 })],
    ["a signature by another key", (claims, sign) => sign(claims, { otherKey: true })],
    ["another issuer", (claims, sign) => sign({ ...claims, iss: "https://evil.example" })],
  ];
  for (const [name, tamper] of cases) {
    it(`refuses ${name}`, async () => {
      const tenant = await tenantWithPeer();
      nextAccount();
      const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
      peer.tamperIdToken = tamper;
      await expectErrorRedirect(await callBack(tenant, callbackUrl, cookie), "invalid_request");
      expect(await userCount(tenant.id)).toBe(0);
      const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
      expect(failed).toMatchObject({ details: { provider: "acme", code: "THIRD_PARTY_PROVIDER_ERROR" } });
    });
  }
});

describe("security 3.9: the provider's JWKS is kept per instance, refetched on an unknown kid at most once a minute", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  /** Moves this process's clock (Sesame and the peer alike) forward; the database keeps real time. */
  const later = (seconds: number) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + seconds * 1000));
  };
  const signedBy =
    (kid: string): NonNullable<OidcPeer["tamperIdToken"]> =>
    (claims, sign) =>
      sign(claims, { kid });

  it("callbacks reuse the JWKS; a new key is fetched once, a stranger's kid never more than once a minute", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    const before = peer.jwksRequests;
    for (let i = 0; i < 3; i++) await signInThroughPeer(tenant, "acme");
    // Three callbacks, one fetch at most (none when another test of this file fetched it a moment ago).
    expect(peer.jwksRequests - before).toBeLessThanOrEqual(1);
    const cached = peer.jwksRequests;

    // The provider rolls its key: the first ID token under the new kid makes one fetch, and signs in.
    await peer.addKey("rolled-1");
    later(61);
    peer.tamperIdToken = signedBy("rolled-1");
    const rolled = await signInThroughPeer(tenant, "acme");
    expect(rolled.location.searchParams.get("hanko_token")).toBeTruthy();
    expect(peer.jwksRequests).toBe(cached + 1);
    // Signed by the new key again: no fetch.
    await signInThroughPeer(tenant, "acme");
    expect(peer.jwksRequests).toBe(cached + 1);

    // Right after a fetch, an unknown kid is refused without fetching again (no fetch per request).
    await peer.addKey("rolled-2");
    peer.tamperIdToken = signedBy("rolled-2");
    let attempt = await signInThroughPeer(tenant, "acme");
    expect(attempt.location.searchParams.get("error")).toBe("invalid_request");
    attempt = await signInThroughPeer(tenant, "acme");
    expect(attempt.location.searchParams.get("error")).toBe("invalid_request");
    expect(peer.jwksRequests).toBe(cached + 1);
    const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
    expect((failed!.details as { reason: string }).reason).toMatch(/kid rolled-2/);
    // A minute on, it is fetched once and signs in.
    later(61);
    attempt = await signInThroughPeer(tenant, "acme");
    expect(attempt.location.searchParams.get("hanko_token")).toBeTruthy();
    expect(peer.jwksRequests).toBe(cached + 2);

    // A kid the provider never publishes: one fetch, refused; again at once: refused, no fetch.
    await peer.addKey("never-published", { publish: false });
    peer.tamperIdToken = signedBy("never-published");
    later(61);
    for (let i = 0; i < 3; i++) {
      const refused = await signInThroughPeer(tenant, "acme");
      expect(refused.location.searchParams.get("error")).toBe("invalid_request");
    }
    expect(peer.jwksRequests).toBe(cached + 3);
  });
});

describe("security 3.8: the audit log names the failed check, the browser does not", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, NonNullable<OidcPeer["tamperIdToken"]>, RegExp][] = [
    [
      "a wrong audience",
      (claims, sign) => sign({ ...claims, aud: "another-client" }),
      /"aud".*expected sesame-client.*actual another-client/,
    ],
    [
      "another issuer",
      (claims, sign) => sign({ ...claims, iss: "https://evil.example" }),
      /"iss".*actual https:\/\/evil\.example/,
    ],
    ["a nonce mismatch", (claims, sign) => sign({ ...claims, nonce: "not-the-nonce" }), /"nonce"/],
    [
      "an expired token",
      (claims, sign) => sign({ ...claims, iat: now() - 7200, exp: now() - 3600 }),
      /"exp".*expiration/,
    ],
    ["a signature by another key", (claims, sign) => sign(claims, { otherKey: true }), /signature/],
  ];
  for (const [name, tamper, reason] of cases) {
    it(name, async () => {
      const tenant = await tenantWithPeer();
      nextAccount();
      const { cookie, callbackUrl } = await authorizeAtPeer(tenant, "acme");
      peer.tamperIdToken = tamper;
      const query = await expectErrorRedirect(await callBack(tenant, callbackUrl, cookie), "invalid_request");
      expect(query.get("error_description")).toBe("the provider's answer could not be used");
      const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
      expect((failed!.details as { reason: string }).reason).toMatch(reason);
      // Never the nonce's value, nor anything of the token beyond the failed claim.
      expect(JSON.stringify(failed!.details)).not.toContain("not-the-nonce");
    });
  }
});

describe("accounts", () => {
  it("never links on an unverified email, even with linking on", async () => {
    const tenant = await tenantWithPeer({ allowLinking: true });
    const existing = await createUserWithEmail(tenant, `taken.${Date.now()}@example.com`);
    nextAccount({ email: (await emailOf(existing.id, tenant)) ?? "", email_verified: false });
    const { res } = await signInThroughPeer(tenant, "acme");
    await expectErrorRedirect(res, "unverified_email");
    expect(await listIdentities(tenant.id, existing.id)).toEqual([]);
    // security 3.8: the audit record says why (the provider did not verify the address).
    const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
    expect((failed!.details as { reason: string }).reason).toMatch(/email_verified/);
  });

  it("links to an existing user by a verified email when linking is on, refuses it when off", async () => {
    const off = await tenantWithPeer({ allowLinking: false });
    const address = `linked.${Date.now()}@example.com`;
    const offUser = await createUserWithEmail(off, address);
    nextAccount({ email: address, email_verified: true });
    await expectErrorRedirect((await signInThroughPeer(off, "acme")).res, "user_conflict");
    expect(await listIdentities(off.id, offUser.id)).toEqual([]);

    await updateProvider(off.id, "acme", { allowLinking: true }, TEST_CONTEXT);
    const { location } = await signInThroughPeer(off, "acme");
    const session = await (await exchange(off, location.searchParams.get("hanko_token")!)).json();
    expect(session).toEqual({ user_id: offUser.id });
    expect(await listIdentities(off.id, offUser.id)).toHaveLength(1);
  });

  it("refuses a sign-up when the tenant disallows sign-ups", async () => {
    const tenant = await createPublicTenant({ platform: { account: { allowSignup: false } } });
    await createProvider(
      tenant.id,
      {
        kind: "oidc",
        slug: "acme",
        clientId: peer.clientId,
        clientSecret: peer.clientSecret,
        options: { issuer: peer.issuer },
      },
      TEST_CONTEXT,
    );
    nextAccount();
    await expectErrorRedirect((await signInThroughPeer(tenant, "acme")).res, "signup_disabled");
  });

  it("connects the provider to a signed-in user (link_user_id)", async () => {
    const tenant = await tenantWithPeer();
    const user = await createUserWithEmail(tenant);
    const account = nextAccount();
    const start = await startThirdPartySignIn(
      tenant,
      { provider: "acme", redirectTo: REDIRECT_TO, linkUserId: user.id },
      TEST_CONTEXT,
    );
    const callbackUrl = await followPeer(start.redirectUrl);
    const res = await callBack(tenant, callbackUrl, start.cookie.value);
    const location = new URL(res.headers.get("location")!);
    const value = location.searchParams.get("hanko_token")!;
    const exchanged = await publicCall(token.POST, tenant, "POST", "/token", {
      body: { value },
      headers: { cookie: bindingCookie(start.cookie.value) },
    });
    expect(await exchanged.json()).toEqual({
      user_id: user.id,
    });
    const [identity] = await listIdentities(tenant.id, user.id);
    expect(identity).toMatchObject({ providerId: "acme", subject: account.sub });
  });
});

describe("the provider's errors", () => {
  it("user cancels: error=access_denied back to redirect_to", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    peer.refuseWith = "access_denied";
    const { res } = await signInThroughPeer(tenant, "acme");
    await expectErrorRedirect(res, "access_denied", /access_denied/);
    const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
    expect(failed).toMatchObject({ details: { code: "THIRD_PARTY_ACCESS_DENIED" } });
  });

  it("another error: invalid_request with the provider's code", async () => {
    const tenant = await tenantWithPeer();
    nextAccount();
    peer.refuseWith = "temporarily_unavailable";
    await expectErrorRedirect(
      (await signInThroughPeer(tenant, "acme")).res,
      "invalid_request",
      /temporarily_unavailable/,
    );
  });
});

describe("GET /thirdparty/{provider}: bad input", () => {
  it("refuses a redirect_to outside the tenant's origins and the provider's URLs (no open redirect)", async () => {
    const tenant = await tenantWithPeer();
    for (const target of [
      "https://evil.example/after",
      "http://localhost:3000.evil.test/after",
      "http://user@localhost:3000/after",
      "javascript:alert(1)",
      "/relative",
      "//evil.example/x",
    ]) {
      await expectPublicError(await startAt(tenant, "acme", target), 400, /redirect/i, [
        "location",
        "set-cookie",
      ]);
    }
    const db = await executor();
    expect(await db.select().from(thirdPartyStates).where(eq(thirdPartyStates.tenantId, tenant.id))).toEqual(
      [],
    );
    const [failed] = await auditEvents(tenant.id, "thirdparty.signin.failed");
    expect(failed).toMatchObject({ details: { code: "REDIRECT_NOT_ALLOWED", step: "start" } });
    // A provider's allowed redirect URL: that path and below only.
    await updateProvider(
      tenant.id,
      "acme",
      { allowedRedirectUrls: ["https://app.example.com/auth"] },
      TEST_CONTEXT,
    );
    expect((await startAt(tenant, "acme", "https://app.example.com/auth/done")).status).toBe(302);
    await expectPublicError(await startAt(tenant, "acme", "https://app.example.com/other"), 400);
  });

  it("answers 404 for an unknown or disabled provider, 400 without redirect_to", async () => {
    const tenant = await tenantWithPeer();
    await expectPublicError(await startAt(tenant, "nope"), 404, undefined, ["location"]);
    await updateProvider(tenant.id, "acme", { enabled: false }, TEST_CONTEXT);
    await expectPublicError(await startAt(tenant, "acme"), 404, undefined, ["location"]);
    await updateProvider(tenant.id, "acme", { enabled: true }, TEST_CONTEXT);
    const res = await publicCall(
      (await import("@/app/(public-api)/t/[tenantId]/thirdparty/[provider]/route")).GET,
      tenant,
      "GET",
      "/thirdparty/acme",
      {},
      { provider: "acme" },
    );
    await expectPublicError(res, 400, undefined, ["location"]);
  });

  it("the POST callback wants a form", async () => {
    const tenant = await tenantWithPeer();
    const res = await publicCall(callbackRoute.POST, tenant, "POST", "/thirdparty/callback", {
      body: { state: "x" },
    });
    await expectPublicError(res, 415);
    // A form is checked as the GET's query is: an over-long state is refused before anything is read.
    const long = await publicCall(callbackRoute.POST, tenant, "POST", "/thirdparty/callback", {
      body: new URLSearchParams({ state: "s".repeat(513), code: "c" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expectPublicError(long, 400, /state/, ["location"]);
  });
});

async function emailOf(userId: string, tenant: Tenant): Promise<string | undefined> {
  const { emails } = await import("@/lib/db/schema");
  const db = await executor();
  const [row] = await db.select().from(emails).where(eq(emails.userId, userId));
  void tenant;
  return row?.address;
}

describe("Apple and limits", () => {
  it("Apple: form_post answer, so the binding cookie is SameSite=None; Secure", async () => {
    const tenant = await createPublicTenant();
    const { generateKeyPairSync } = await import("node:crypto");
    const pem = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    await createProvider(
      tenant.id,
      {
        kind: "apple",
        clientId: peer.clientId,
        applePrivateKey: pem,
        options: { issuer: peer.issuer, teamId: "TEAM123456", keyId: "KEY1234567" },
      },
      TEST_CONTEXT,
    );
    const res = await startAt(tenant, "apple");
    expect(res.status, await res.clone().text()).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("response_mode")).toBe("form_post");
    expect(res.headers.getSetCookie().join("\n")).toMatch(/HttpOnly; Secure; SameSite=None/);
  });

  it("rate-limits the start (per IP, tenant's thirdparty group)", async () => {
    const tenant = await createPublicTenant({
      platform: { rateLimits: { thirdparty: { points: 2, durationSeconds: 60 } } },
    });
    await createProvider(
      tenant.id,
      {
        kind: "oidc",
        slug: "acme",
        clientId: peer.clientId,
        clientSecret: peer.clientSecret,
        options: { issuer: peer.issuer },
      },
      TEST_CONTEXT,
    );
    expect((await startAt(tenant, "acme")).status).toBe(302);
    expect((await startAt(tenant, "acme")).status).toBe(302);
    const limited = await startAt(tenant, "acme");
    await expectPublicError(limited, 429, undefined, ["location", "set-cookie"]);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });
});
