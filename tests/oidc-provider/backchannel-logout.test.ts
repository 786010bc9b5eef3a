import { eq, sql } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import * as logout from "@/app/(public-api)/t/[tenantId]/logout/route";
import { describe, expect, it } from "vitest";
import { deleteAdminUser, setAccountLocked } from "@/lib/accounts";
import { executor } from "@/lib/db";
import { openidModels, sessions, webhookDeliveries } from "@/lib/db/schema";
import { queueBackchannelLogouts } from "@/lib/openid";
import { endSession, findUserSessions, revokeSessionOfUser } from "@/lib/sessions";
import { getJwks } from "@/lib/tenants";
import { configureWebhooks, processDueDeliveries } from "@/lib/webhooks";
import { deliveryTestHooks } from "@/tests/admin-api/webhooks-receiver";
import { createOAuthClient } from "@/lib/openid";
import { issuerOf, logOutAtProvider, setUp, signIn, type Setup } from "@/tests/helpers/openid";
import { createPublicTenant, ORIGIN, publicCall, TEST_CONTEXT } from "@/tests/helpers/public-api";
import { SESSION_ENDS } from "@/tests/helpers/session-ends";

// The sweep and the worker take every due row of their database: on Postgres this file gets its own.
const receiver = deliveryTestHooks(deliver);

/** What the background does every few seconds: queue the ended sessions' logout tokens, then send them. */
async function deliver(): Promise<number> {
  const queued = await queueBackchannelLogouts();
  while ((await processDueDeliveries({ limit: 50 })) > 0);
  return queued;
}

/** A tenant, a user signed in to Sesame and, through it, to a client with a back-channel logout URI. */
async function signedIn(uri: string, options: Parameters<typeof setUp>[0] = {}) {
  const setup = await setUp({ ...options, metadata: { backchannel_logout_uri: uri, ...options.metadata } });
  const tokens = await signIn(setup);
  const [session] = await findUserSessions(setup.tenant.id, setup.user.id);
  return { setup, tokens, session: session! };
}

/** The logout token of a received request, verified against the tenant's JWKS; its header and claims. */
async function verifyLogoutToken(setup: Setup, body: string) {
  const token = new URLSearchParams(body).get("logout_token")!;
  const { payload } = await jwtVerify(token, createLocalJWKSet(await getJwks(setup.tenant.id)), {
    issuer: issuerOf(setup.tenant),
    audience: setup.rp.clientId,
    typ: "logout+jwt",
  });
  return { header: decodeProtectedHeader(token), payload };
}

const EVENTS = { "http://schemas.openid.net/event/backchannel-logout": {} };

/** How many of the OpenID Provider's models (codes, tokens) are bound to the Sesame session. */
async function sessionModels(sessionId: string): Promise<number> {
  const db = await executor();
  const rows = await db.select().from(openidModels).where(eq(openidModels.sessionId, sessionId));
  return rows.length;
}

async function deliveriesTo(target: string) {
  const db = await executor();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.target, target));
}

describe("OpenID Provider: back-channel logout", () => {
  it("a user's sign-out (public API) sends the client a signed logout token naming the session and user", async () => {
    const bcl = await receiver();
    const uri = `${bcl.url}/backchannel`;
    const { setup, tokens, session } = await signedIn(uri);
    // The ID token's sid is the Sesame session's id.
    expect(tokens.claims()!.sid).toBe(session.id);
    const cookie = setup.browser.cookies.get(setup.tenant.platform.session.cookie.name)!;
    const out = await publicCall(logout.POST, setup.tenant, "POST", "/logout", { cookie, origin: ORIGIN });
    expect(out.status).toBe(204);
    expect(await deliver()).toBe(1);
    expect(bcl.received).toHaveLength(1);
    const [request] = bcl.received;
    expect(request!.path).toBe("/backchannel");
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const { header, payload } = await verifyLogoutToken(setup, request!.body);
    expect(header.typ).toBe("logout+jwt");
    expect(payload).toMatchObject({ sub: setup.user.id, sid: session.id, events: EVENTS });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0);
    expect(payload).not.toHaveProperty("nonce");
    // Once: the session's row for the client is gone, a second sweep queues nothing.
    expect(await deliver()).toBe(0);
    expect(bcl.received).toHaveLength(1);
  });

  it("an admin's revocation, the user's lock and the user's deletion (cascade) each send one", async () => {
    const bcl = await receiver();
    const revoked = await signedIn(`${bcl.url}/revoked`, { platformUser: true });
    await revokeSessionOfUser(
      revoked.setup.tenant.id,
      revoked.setup.user.id,
      revoked.session.id,
      TEST_CONTEXT,
    );
    const locked = await signedIn(`${bcl.url}/locked`, { platformUser: true });
    await setAccountLocked(locked.setup.tenant, locked.setup.user.id, true, TEST_CONTEXT);
    const deleted = await signedIn(`${bcl.url}/deleted`, { platformUser: true });
    await deleteAdminUser(deleted.setup.tenant, deleted.setup.user.id, TEST_CONTEXT);
    expect(await deliver()).toBe(3);
    const byPath = new Map(bcl.received.map((request) => [request.path, request.body]));
    expect([...byPath.keys()].sort()).toEqual(["/deleted", "/locked", "/revoked"]);
    for (const [path, { setup, session }] of [
      ["/revoked", revoked],
      ["/locked", locked],
      ["/deleted", deleted],
    ] as const) {
      const { payload } = await verifyLogoutToken(setup, byPath.get(path)!);
      expect(payload).toMatchObject({ sub: setup.user.id, sid: session.id, events: EVENTS });
    }
  });

  it("the hosted logout page and the flow API (session_delete, account_delete) each queue one", async () => {
    const bcl = await receiver();
    const tenant = await createPublicTenant({ platform: { account: { allowDeletion: true } } });
    const ends = [
      ["/hosted", "the hosted logout page (the elements' logout())"],
      ["/flow-session", "another session ends it in the profile flow (flow API session_delete)"],
      ["/flow-account", "the account is deleted in the profile flow (flow API account_delete)"],
    ] as const;
    const signedInto = [];
    for (const [path, end] of ends) {
      const signed = await signedIn(`${bcl.url}${path}`, { tenant, platformUser: true });
      expect(await sessionModels(signed.session.id)).toBeGreaterThan(0);
      await SESSION_ENDS[end](signed.setup, signed.session.id);
      signedInto.push({ path, ...signed });
    }
    // Queued in the outbox (one direct delivery each), before any is sent.
    expect(await queueBackchannelLogouts()).toBe(3);
    for (const { path } of signedInto) {
      const deliveries = await deliveriesTo(`${bcl.url}${path}`);
      expect(deliveries, path).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ status: "pending", webhookId: null });
    }
    expect(bcl.received).toHaveLength(0);
    await deliver();
    const byPath = new Map(bcl.received.map((request) => [request.path, request.body]));
    expect([...byPath.keys()].sort()).toEqual(["/flow-account", "/flow-session", "/hosted"]);
    for (const { path, setup, session } of signedInto) {
      const { payload } = await verifyLogoutToken(setup, byPath.get(path)!);
      expect(payload, path).toMatchObject({ sub: setup.user.id, sid: session.id, events: EVENTS });
      // The session's codes and tokens (refused since it ended) went with the sweep.
      expect(await sessionModels(session.id), path).toBe(0);
    }
  });

  it("an expired session sends one (swept or not)", async () => {
    const bcl = await receiver();
    const { setup, session } = await signedIn(`${bcl.url}/expired`);
    expect(await deliver()).toBe(0);
    const db = await executor();
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, session.id));
    expect(await deliver()).toBe(1);
    const { payload } = await verifyLogoutToken(setup, bcl.received[0]!.body);
    expect(payload.sid).toBe(session.id);
  });

  it("RP-initiated logout: delivered through the outbox, not by oidc-provider's own fetch", async () => {
    const bcl = await receiver();
    const { setup, tokens, session } = await signedIn(`${bcl.url}/rp`);
    const { done } = await logOutAtProvider(setup, { id_token_hint: tokens.id_token! });
    expect(done.status).toBe(303);
    // Nothing sent during the request itself.
    expect(bcl.received).toHaveLength(0);
    expect(await deliver()).toBe(1);
    const { payload } = await verifyLogoutToken(setup, bcl.received[0]!.body);
    expect(payload).toMatchObject({ sub: setup.user.id, sid: session.id });
  });

  it("retries after the receiver fails, with a fresh token of the same jti", async () => {
    const bcl = await receiver(
      (_request, response, index) => void response.writeHead(index === 0 ? 503 : 200).end(),
    );
    const uri = `${bcl.url}/flaky`;
    const { setup, session } = await signedIn(uri);
    await endSession(setup.tenant, session, TEST_CONTEXT);
    await deliver();
    expect(bcl.received).toHaveLength(2);
    const first = await verifyLogoutToken(setup, bcl.received[0]!.body);
    const second = await verifyLogoutToken(setup, bcl.received[1]!.body);
    expect(second.payload.jti).toBe(first.payload.jti);
    const [delivery] = await deliveriesTo(uri);
    expect(delivery).toMatchObject({ status: "succeeded", attemptCount: 2, webhookId: null });
  });

  it("refuses a private address at delivery once SESAME_WEBHOOKS_ALLOW_PRIVATE is off", async () => {
    const bcl = await receiver();
    const uri = `https://127.0.0.1:${new URL(bcl.url).port}/private`;
    // Registered while private addresses were allowed (registration checks too: tests/admin-api/oauth-clients).
    const { setup, session } = await signedIn(uri);
    configureWebhooks({ allowPrivate: false, retrySchedule: [], jitter: 0, timeoutMs: 3000 });
    await endSession(setup.tenant, session, TEST_CONTEXT);
    expect(await deliver()).toBe(1);
    expect(bcl.received).toHaveLength(0);
    const [delivery] = await deliveriesTo(uri);
    expect(delivery).toMatchObject({ status: "failed", lastError: "address_refused" });
  });

  it("sends nothing to a client without the URI, one the session never used, or another tenant's", async () => {
    const bcl = await receiver();
    // Tenant A: the session signs in to a client with the URI and one without.
    const a = await signedIn(`${bcl.url}/a`);
    const plain = await setUp({ tenant: a.setup.tenant });
    plain.browser.cookies.clear();
    for (const [name, value] of a.setup.browser.cookies) plain.browser.setCookie(name, value);
    const plainTokens = await signIn(plain);
    expect(plainTokens.claims()!.sid).toBe(a.session.id);
    // A client of tenant A the session never signed in to, and a client of tenant B with a live session.
    await createOAuthClient(
      a.setup.tenant.id,
      {
        client_name: "Unused",
        redirect_uris: ["http://localhost:4000/callback"],
        backchannel_logout_uri: `${bcl.url}/unused`,
        first_party: true,
      },
      TEST_CONTEXT,
    );
    const b = await signedIn(`${bcl.url}/b`);
    await endSession(a.setup.tenant, a.session, TEST_CONTEXT);
    expect(await deliver()).toBe(1);
    expect(bcl.received.map((request) => request.path)).toEqual(["/a"]);
    const { payload } = await verifyLogoutToken(a.setup, bcl.received[0]!.body);
    expect(payload.aud).toBe(a.setup.rp.clientId);
    // Tenant B's session is live: nothing for its client until it ends.
    await endSession(b.setup.tenant, b.session, TEST_CONTEXT);
    expect(await deliver()).toBe(1);
    expect(bcl.received.map((request) => request.path)).toEqual(["/a", "/b"]);
  });
});
