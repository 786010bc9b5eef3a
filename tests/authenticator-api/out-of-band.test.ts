import QRCode from "qrcode";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { sha256Hex } from "@/lib/crypto";
import {
  appLink,
  auditEventsOf,
  authenticatorRequest,
  backdateRequest,
  createUafRequest,
  expectAuthenticatorError,
  jsonOf,
  registerDevice,
  setupUafTenant,
  storedRegistrations,
  storedRequest,
  type UafTestTenant,
} from "../helpers/authenticator-api";

/**
 * The out-of-band token: what lets the authenticator app (which never holds the API key) fetch one
 * request and answer it once. Tokens come from GET …/link (the QR code's URL as text); one test reads
 * the URL the QR code encodes by watching the `qrcode` library's input.
 */

interface AppView {
  id: string;
  operation: string;
  status: string;
  username: string;
  validUntil: string;
  relyingParty: { id: string; name: string; appId: string; icon: string };
  request: string;
  transaction?: string;
  error?: { code: number; reason: string };
}

const APP_VIEW_KEYS = ["id", "operation", "relyingParty", "request", "status", "username", "validUntil"];

const app = (method: "GET" | "PUT", path: string, body?: unknown) =>
  authenticatorRequest(method, path, body === undefined ? {} : { body });

/** The app path of a request with this token. */
const withToken = (id: string, token: string) => `/v1/uaf/app/requests/${id}?token=${token}`;

afterEach(() => {
  vi.restoreAllMocks();
});

async function pendingReg(t: UafTestTenant, userId = "u-1") {
  return createUafRequest(t, { operation: "REG", userId, username: "alice" });
}

describe("the QR code", () => {
  it("holds <base URL>/v1/uaf/app/requests/{id}?token=…, a token stored only as its hash, never the API key", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t);
    const toBuffer = vi.spyOn(QRCode, "toBuffer");
    const qr = await t.api("GET", `/v1/uaf/requests/${reg.id}/qrcode?width=200`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get("cache-control")).toBe("no-store");
    expect(toBuffer).toHaveBeenCalledTimes(1);
    const encoded = String(toBuffer.mock.calls[0]![0]);
    const prefix = `${getConfig().baseUrl}/v1/uaf/app/requests/${reg.id}?token=`;
    expect(encoded.startsWith(prefix)).toBe(true);
    const token = encoded.slice(prefix.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(encoded).not.toContain(t.keys.authenticator);
    const row = await storedRequest(reg.id);
    expect(row!.oobTokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const view = await jsonOf<AppView>(await app("GET", withToken(reg.id, token)));
    expect(view).toMatchObject({ id: reg.id, status: "PENDING", request: reg.request });
  });

  it("a newer QR code (or link) invalidates the older token", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t);
    const first = await appLink(t, reg.id);
    expect((await app("GET", first.path)).status).toBe(200);
    expect((await t.api("GET", `/v1/uaf/requests/${reg.id}/qrcode`)).status).toBe(200);
    await expectAuthenticatorError(await app("GET", first.path), 401);
    await expectAuthenticatorError(
      await app("PUT", first.path, { uafResponse: t.phone.register(reg.request) }),
      401,
    );
    const second = await appLink(t, reg.id);
    expect(second.token).not.toBe(first.token);
    expect((await app("GET", second.path)).status).toBe(200);
    expect((await storedRequest(reg.id))!.status).toBe("PENDING");
  });
});

describe("GET /v1/uaf/app/requests/{id}?token=", () => {
  it("answers the app's view of the request, without the user id, and may be read again", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t, "secret-user-id");
    const { path } = await appLink(t, reg.id);
    const res = await app("GET", path);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const view = await jsonOf<AppView>(res);
    expect(Object.keys(view).sort()).toEqual(APP_VIEW_KEYS);
    expect(view).toEqual({
      id: reg.id,
      operation: "REG",
      status: "PENDING",
      username: "alice",
      validUntil: reg.validUntil,
      relyingParty: reg.relyingParty,
      request: reg.request,
    });
    expect(JSON.stringify(view)).not.toContain("secret-user-id");
    expect(await jsonOf<AppView>(await app("GET", path))).toEqual(view);
  });

  it("refuses a wrong or missing token with 401 and leaves the request alone", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t);
    const { token } = await appLink(t, reg.id);
    const before = await storedRequest(reg.id);
    for (const path of [
      `/v1/uaf/app/requests/${reg.id}`,
      withToken(reg.id, ""),
      withToken(reg.id, "wrong"),
      withToken(reg.id, `${token}x`),
      withToken(reg.id, token.slice(1)),
      withToken(reg.id, sha256Hex(token)), // the stored hash is not the token
    ]) {
      await expectAuthenticatorError(await app("GET", path), 401, "out-of-band token");
    }
    expect(await storedRequest(reg.id)).toEqual(before);
    expect((await app("GET", withToken(reg.id, token))).status).toBe(200);
  });

  it("shows an AUTH request's transaction", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1", transaction: "Pay 10 EUR?" });
    const view = await jsonOf<AppView>(await app("GET", (await appLink(t, auth.id)).path));
    expect(view).toMatchObject({ operation: "AUTH", transaction: "Pay 10 EUR?" });
    expect(t.phone.describe(view.request).transactionText).toBe("Pay 10 EUR?");
  });
});

describe("PUT /v1/uaf/app/requests/{id}?token=", () => {
  it("REG: answers once; the token is dead afterwards (401) and the relying party sees OK", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t);
    const { path } = await appLink(t, reg.id);
    const view = await jsonOf<AppView>(await app("GET", path));
    const uafResponse = t.phone.register(view.request);
    const res = await app("PUT", path, { uafResponse, deviceKeyInfo: { keyName: "Alice's phone" } });
    const outcome = await jsonOf<AppView>(res);
    expect(outcome).toMatchObject({ id: reg.id, status: "OK" });
    expect(Object.keys(outcome).sort()).toEqual(APP_VIEW_KEYS);

    await expectAuthenticatorError(await app("PUT", path, { uafResponse }), 401);
    await expectAuthenticatorError(await app("GET", path), 401);
    expect((await storedRequest(reg.id))!.oobTokenHash).toBeNull();
    const seen = await jsonOf(await t.api("GET", `/v1/uaf/requests/${reg.id}`));
    expect(seen).toMatchObject({ status: "OK", device: { keyName: "Alice's phone" } });
    expect(await storedRegistrations(t.tenant.id)).toHaveLength(1);
    const [event] = await auditEventsOf(t.tenant.id, "authenticator.registration.succeeded");
    expect(event!.actor).toBe("oob_token");
  });

  it("AUTH with a transaction: confirmed through the app, the counter moves once", async () => {
    const t = await setupUafTenant();
    const deviceId = await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1", transaction: "Pay 10 EUR?" });
    const { path } = await appLink(t, auth.id);
    const uafResponse = t.phone.authenticate(auth.request);
    const outcome = await jsonOf<AppView>(await app("PUT", path, { uafResponse }));
    expect(outcome).toMatchObject({ status: "OK", transaction: "Pay 10 EUR?" });
    await expectAuthenticatorError(await app("PUT", path, { uafResponse }), 401);
    const [device] = await storedRegistrations(t.tenant.id);
    expect(device).toMatchObject({ id: deviceId, signCounter: 1 });
  });

  it("a failed answer is FAILED with its error in the app's view, and the token is spent", async () => {
    const t = await setupUafTenant();
    const reg = await pendingReg(t);
    const { path } = await appLink(t, reg.id);
    const bad = t.phone.register(reg.request, {
      facetId: "https://evil.example",
      appID: "https://evil.example",
    });
    const outcome = await jsonOf<AppView>(await app("PUT", path, { uafResponse: bad }));
    expect(outcome).toMatchObject({ status: "FAILED", error: { code: 1403, reason: "untrusted_facet" } });
    await expectAuthenticatorError(
      await app("PUT", path, { uafResponse: t.phone.register(reg.request) }),
      401,
    );
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("the token of request A opens neither request B (GET, PUT) nor B's QR code", async () => {
    const t = await setupUafTenant();
    const a = await pendingReg(t, "u-a");
    const b = await pendingReg(t, "u-b");
    const tokenA = (await appLink(t, a.id)).token;
    await appLink(t, b.id); // B has a token of its own
    const beforeB = await storedRequest(b.id);
    await expectAuthenticatorError(await app("GET", withToken(b.id, tokenA)), 401);
    const answerB = t.phone.register(b.request);
    await expectAuthenticatorError(await app("PUT", withToken(b.id, tokenA), { uafResponse: answerB }), 401);
    expect(await storedRequest(b.id)).toEqual(beforeB);
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
    // A's token still works on A.
    expect((await app("GET", withToken(a.id, tokenA))).status).toBe(200);
  });

  it("a cancelled or expired request refuses its token (401)", async () => {
    const t = await setupUafTenant();
    const cancelled = await pendingReg(t, "u-c");
    const cancelledLink = await appLink(t, cancelled.id);
    await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${cancelled.id}`));
    await expectAuthenticatorError(await app("GET", cancelledLink.path), 401);
    await expectAuthenticatorError(
      await app("PUT", cancelledLink.path, { uafResponse: t.phone.register(cancelled.request) }),
      401,
    );
    expect((await storedRequest(cancelled.id))!.status).toBe("INVALIDATED");

    const expired = await pendingReg(t, "u-e");
    const expiredLink = await appLink(t, expired.id);
    await backdateRequest(expired.id, 3600);
    await expectAuthenticatorError(await app("GET", expiredLink.path), 401);
    await expectAuthenticatorError(
      await app("PUT", expiredLink.path, { uafResponse: t.phone.register(expired.request) }),
      401,
    );
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });
});

describe("DEREG through the app", () => {
  it("can be fetched after creation and acknowledged once", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    const dereg = await createUafRequest(t, { operation: "DEREG", userId: "u-1" });
    expect(dereg.status).toBe("OK");
    const { path } = await appLink(t, dereg.id);
    const view = await jsonOf<AppView>(await app("GET", path));
    expect(view).toMatchObject({ operation: "DEREG", status: "OK", request: dereg.request });
    expect(t.phone.deregister(view.request)).toEqual({ removed: 1 });
    expect(t.phone.state.keys).toEqual([]);

    const ack = await jsonOf<AppView>(await app("PUT", path, { uafResponse: "" }));
    expect(ack).toMatchObject({ id: dereg.id, operation: "DEREG", status: "OK" });
    await expectAuthenticatorError(await app("PUT", path, { uafResponse: "" }), 401);
    await expectAuthenticatorError(await app("GET", path), 401);
    expect(await storedRequest(dereg.id)).toMatchObject({ status: "OK", oobTokenHash: null });
    // Until validUntil the relying party may show the DEREG again (a new token, itself good once);
    // after validUntil it can no longer be handed out.
    const again = await appLink(t, dereg.id);
    expect((await app("GET", again.path)).status).toBe(200);
    expect((await jsonOf<AppView>(await app("PUT", again.path, { uafResponse: "" }))).status).toBe("OK");
    await expectAuthenticatorError(await app("PUT", again.path, { uafResponse: "" }), 401);
    await backdateRequest(dereg.id, 3600);
    await expectAuthenticatorError(await t.api("GET", `/v1/uaf/requests/${dereg.id}/link`), 409);
  });
});
