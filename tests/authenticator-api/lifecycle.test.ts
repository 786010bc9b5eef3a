import { describe, expect, it } from "vitest";
import { updateTenant } from "@/lib/tenants";
import { and, eq, sql } from "drizzle-orm";
import { executor } from "@/lib/db";
import { users } from "@/lib/db/schema";
import {
  appLink,
  auditEventsOf,
  authenticatorRequest,
  backdateRequest,
  createUafRequest,
  editResponse,
  expectAuthenticatorError,
  jsonOf,
  registerDevice,
  setupUafTenant,
  storedRegistrations,
  storedRequest,
  uafState,
  validateUafRequest,
  type RequestBody,
  type UafTestTenant,
} from "../helpers/authenticator-api";

/**
 * Single use, replay, expiry, cancellation and concurrent answers: the status changes once (PENDING →
 * OK | FAILED | INVALIDATED) and never moves again, whatever is sent afterwards or at the same time.
 */

const EXPIRED = { code: 1408, reason: "request_expired" };

async function read(t: UafTestTenant, id: string): Promise<RequestBody> {
  return jsonOf(await t.api("GET", `/v1/uaf/requests/${id}`));
}

/** Every later PUT and DELETE answers 200 with the same resource, and the row stays as it is. */
async function expectFinal(t: UafTestTenant, final: RequestBody, answers: string[]): Promise<void> {
  const row = await storedRequest(final.id);
  const registrations = await storedRegistrations(t.tenant.id);
  for (const uafResponse of answers) {
    expect(await validateUafRequest(t, final.id, uafResponse)).toEqual(final);
  }
  expect(await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${final.id}`))).toEqual(final);
  expect(await read(t, final.id)).toEqual(final);
  expect(await storedRequest(final.id)).toEqual(row);
  expect(await storedRegistrations(t.tenant.id)).toEqual(registrations);
}

describe("a replayed response", () => {
  it("PUT twice: the second answers 200 with the unchanged OK request and stores nothing more", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const response = t.phone.register(reg.request);
    const ok = await validateUafRequest(t, reg.id, response, { keyName: "first" });
    expect(ok.status).toBe("OK");
    const again = await validateUafRequest(t, reg.id, response, { keyName: "second" });
    expect(again).toEqual(ok);
    const registrations = await storedRegistrations(t.tenant.id);
    expect(registrations.map((row) => [row.id, row.name])).toEqual([[ok.deviceID, "first"]]);
    expect(await auditEventsOf(t.tenant.id, "authenticator.registration.succeeded")).toHaveLength(1);
  });

  it("REG: the same response sent to a new request fails (1491) and registers nothing", async () => {
    const t = await setupUafTenant();
    const first = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const response = t.phone.register(first.request);
    expect((await validateUafRequest(t, first.id, response)).status).toBe("OK");
    const before = await storedRegistrations(t.tenant.id);

    const second = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const replayed = await validateUafRequest(t, second.id, response);
    expect(replayed).toMatchObject({
      status: "FAILED",
      error: { code: 1491, reason: "server_data_mismatch" },
    });

    // With the new request's serverData pasted in, the old challenge in fcParams still gives it away.
    const third = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const serverData = (JSON.parse(third.request) as { header: { serverData: string } }[])[0]!.header
      .serverData;
    const pasted = editResponse(response, (entry) => {
      (entry.header as { serverData: string }).serverData = serverData;
    });
    expect(await validateUafRequest(t, third.id, pasted)).toMatchObject({
      status: "FAILED",
      error: { code: 1491, reason: "challenge_mismatch" },
    });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });

  it("AUTH: replayed to its own request it changes nothing; to a new request it fails and the counter stays", async () => {
    const t = await setupUafTenant();
    const deviceId = await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    const response = t.phone.authenticate(auth.request);
    const ok = await validateUafRequest(t, auth.id, response);
    expect(ok).toMatchObject({ status: "OK", deviceID: deviceId });
    const [afterOk] = await storedRegistrations(t.tenant.id);
    expect(afterOk!.signCounter).toBe(1);

    expect(await validateUafRequest(t, auth.id, response)).toEqual(ok);
    const next = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    expect(await validateUafRequest(t, next.id, response)).toMatchObject({
      status: "FAILED",
      error: { code: 1491, reason: "server_data_mismatch" },
    });
    expect(await storedRegistrations(t.tenant.id)).toEqual([afterOk]);
    expect(await auditEventsOf(t.tenant.id, "authenticator.authentication.succeeded")).toHaveLength(1);
  });
});

describe("an expired request", () => {
  async function expiredRequest(operation: "REG" | "AUTH") {
    const t = await setupUafTenant();
    await updateTenant(t.tenant.id, { requestTtlSeconds: 10 });
    if (operation === "AUTH") await registerDevice(t, "u-1");
    const created = await createUafRequest(t, { operation, userId: "u-1" });
    expect(Date.parse(created.validUntil) - Date.parse(created.createdAt)).toBe(10_000);
    const answer =
      operation === "REG" ? t.phone.register(created.request) : t.phone.authenticate(created.request);
    await backdateRequest(created.id, 11);
    return { t, created, answer };
  }

  it("reads FAILED 1408 request_expired (lazily: the row is still PENDING)", async () => {
    const { t, created } = await expiredRequest("REG");
    const expired = await read(t, created.id);
    expect(expired).toMatchObject({ id: created.id, status: "FAILED", error: EXPIRED, deviceID: "" });
    expect((await storedRequest(created.id))!.status).toBe("PENDING");
  });

  it("REG: a valid response afterwards stores FAILED 1408 and registers nothing; the status stays", async () => {
    const { t, created, answer } = await expiredRequest("REG");
    const failed = await validateUafRequest(t, created.id, answer);
    expect(failed).toMatchObject({ status: "FAILED", error: EXPIRED });
    expect(await storedRequest(created.id)).toMatchObject({
      status: "FAILED",
      errorCode: 1408,
      errorReason: "request_expired",
    });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
    const [event] = await auditEventsOf(t.tenant.id, "authenticator.registration.failed");
    expect(event!.details).toMatchObject({ requestId: created.id, ...EXPIRED });
    await expectFinal(t, failed, [answer]);
  });

  it("AUTH: a valid response afterwards fails with 1408 and the counter stays", async () => {
    const { t, created, answer } = await expiredRequest("AUTH");
    const before = await storedRegistrations(t.tenant.id);
    expect(await validateUafRequest(t, created.id, answer)).toMatchObject({
      status: "FAILED",
      error: EXPIRED,
    });
    expect(await storedRegistrations(t.tenant.id)).toEqual(before);
  });

  it("cannot be cancelled (stays FAILED 1408) and gets no QR code or link (409)", async () => {
    const { t, created } = await expiredRequest("REG");
    const cancelled = await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${created.id}`));
    expect(cancelled).toMatchObject({ status: "FAILED", error: EXPIRED });
    await expectAuthenticatorError(await t.api("GET", `/v1/uaf/requests/${created.id}/qrcode`), 409);
    await expectAuthenticatorError(await t.api("GET", `/v1/uaf/requests/${created.id}/link`), 409);
    expect((await storedRequest(created.id))!).toMatchObject({ status: "PENDING", oobTokenHash: null });
  });
});

describe("a cancelled request", () => {
  it("DELETE: PENDING → INVALIDATED; a later valid response leaves it INVALIDATED and registers nothing", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const cancelled = await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${reg.id}`));
    expect(cancelled).toMatchObject({ id: reg.id, status: "INVALIDATED", deviceID: "" });
    expect(cancelled.error).toBeUndefined();
    await expectFinal(t, cancelled, [t.phone.register(reg.request)]);
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
    await expectAuthenticatorError(await t.api("GET", `/v1/uaf/requests/${reg.id}/qrcode`), 409);
    const events = await auditEventsOf(t.tenant.id, "authenticator.request.cancelled");
    expect(events.map((event) => event.details)).toEqual([
      { requestId: reg.id, changed: false, status: "INVALIDATED" },
      { requestId: reg.id, changed: true, status: "INVALIDATED" },
    ]);
  });

  it("AUTH: cancelled, the response moves no counter", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1", transaction: "Pay 5 EUR?" });
    const cancelled = await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${auth.id}`));
    expect(cancelled).toMatchObject({ status: "INVALIDATED", transaction: "Pay 5 EUR?" });
    await expectFinal(t, cancelled, [t.phone.authenticate(auth.request)]);
  });
});

describe("the status never moves backwards", () => {
  it("after OK (REG and AUTH): later PUTs, bad or good, and DELETE leave it OK", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const regOk = await validateUafRequest(t, reg.id, t.phone.register(reg.request));
    expect(regOk.status).toBe("OK");
    await expectFinal(t, regOk, ["[{not json", t.phone.register(reg.request, { tamperSignature: true })]);

    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    const authOk = await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request));
    expect(authOk.status).toBe("OK");
    await expectFinal(t, authOk, ["", t.phone.authenticate(auth.request, { signCounter: 0 })]);
  });

  it("after FAILED: the right response, or cancelling, leaves it FAILED", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const failed = await validateUafRequest(
      t,
      reg.id,
      t.phone.register(reg.request, { tamperSignature: true }),
    );
    expect(failed).toMatchObject({ status: "FAILED", error: { code: 1496 } });
    await expectFinal(t, failed, [t.phone.register(reg.request)]);
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
  });

  it("a DEREG is OK from the start: PUT and DELETE leave it OK", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    const dereg = await createUafRequest(t, { operation: "DEREG", userId: "u-1" });
    expect(dereg).toMatchObject({ status: "OK", operation: "DEREG" });
    expect(await storedRegistrations(t.tenant.id)).toEqual([]);
    await expectFinal(t, dereg, ["", "[]"]);
  });
});

/** How many identical calls race; on Postgres they run on separate pooled connections. */
const N = 10;

describe("Authenticator API under concurrent calls", () => {
  it(`stores one registration for ${N} parallel PUTs of the same REG response; every answer is 200 OK`, async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const uafResponse = t.phone.register(reg.request);
    const answers = await Promise.all(
      Array.from({ length: N }, () => t.api("PUT", `/v1/uaf/requests/${reg.id}`, { uafResponse })),
    );
    const bodies = await Promise.all(answers.map((res) => jsonOf(res)));
    expect(bodies.map((body) => body.status)).toEqual(Array(N).fill("OK"));
    const registrations = await storedRegistrations(t.tenant.id);
    expect(registrations).toHaveLength(1);
    expect(new Set(bodies.map((body) => body.deviceID))).toEqual(new Set([registrations[0]!.id]));
    expect(await auditEventsOf(t.tenant.id, "authenticator.registration.succeeded")).toHaveLength(1);
    expect(await auditEventsOf(t.tenant.id, "authenticator.registration.failed")).toHaveLength(0);
  });

  it(`moves the sign counter once for ${N} parallel PUTs of the same AUTH response`, async () => {
    const t = await setupUafTenant();
    const deviceId = await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    const uafResponse = t.phone.authenticate(auth.request);
    const bodies = await Promise.all(
      Array.from({ length: N }, async () =>
        jsonOf(await t.api("PUT", `/v1/uaf/requests/${auth.id}`, { uafResponse })),
      ),
    );
    expect(bodies.every((body) => body.status === "OK" && body.deviceID === deviceId)).toBe(true);
    const [device] = await storedRegistrations(t.tenant.id);
    expect(device!.signCounter).toBe(1);
    expect(await auditEventsOf(t.tenant.id, "authenticator.authentication.succeeded")).toHaveLength(1);
  });

  it(`accepts one of ${N} cloned authenticators signing the same counter on separate requests (1493 for the rest)`, async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "u-1");
    const requests = await Promise.all(
      Array.from({ length: N }, () => createUafRequest(t, { operation: "AUTH", userId: "u-1" })),
    );
    const answers = requests.map((request) => t.phone.authenticate(request.request, { signCounter: 7 }));
    const bodies = await Promise.all(
      requests.map(async (request, i) =>
        jsonOf(await t.api("PUT", `/v1/uaf/requests/${request.id}`, { uafResponse: answers[i] })),
      ),
    );
    const ok = bodies.filter((body) => body.status === "OK");
    const failed = bodies.filter((body) => body.status === "FAILED");
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(N - 1);
    for (const body of failed) expect(body.error).toEqual({ code: 1493, reason: "counter_regression" });
    const [device] = await storedRegistrations(t.tenant.id);
    expect(device!.signCounter).toBe(7);
  });

  it("a validation racing a cancel: exactly one of them wins and both answers agree", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const uafResponse = t.phone.register(reg.request);
    const [validated, cancelled] = await Promise.all([
      t.api("PUT", `/v1/uaf/requests/${reg.id}`, { uafResponse }),
      t.api("DELETE", `/v1/uaf/requests/${reg.id}`),
    ]);
    const [v, c] = [await jsonOf(validated), await jsonOf(cancelled)];
    const final = (await storedRequest(reg.id))!.status;
    expect(["OK", "INVALIDATED"]).toContain(final);
    expect(v.status).toBe(final);
    expect(c.status).toBe(final);
    expect(await storedRegistrations(t.tenant.id)).toHaveLength(final === "OK" ? 1 : 0);
  });

  it(`the app's token answers once among ${N} parallel app PUTs (the rest 401)`, async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const { path } = await appLink(t, reg.id);
    const uafResponse = t.phone.register(reg.request);
    const answers = await Promise.all(
      Array.from({ length: N }, () => authenticatorRequest("PUT", path, { body: { uafResponse } })),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, ...Array(N - 1).fill(401)]);
    const ok = await jsonOf<Pick<RequestBody, "status">>(answers.find((res) => res.status === 200)!);
    expect(ok.status).toBe("OK");
    expect(await storedRegistrations(t.tenant.id)).toHaveLength(1);
  });
});

describe("Authenticator API and locked users", () => {
  it("creates no AUTH request for a locked user (USER_LOCKED), a DEREG still", async () => {
    const t = await setupUafTenant();
    await registerDevice(t, "locked-user");
    // The admin API locks platform users; a relying party's user (an external id) is locked in the row.
    const db = await executor();
    await db
      .update(users)
      .set({ lockedAt: sql`now()` })
      .where(and(eq(users.tenantId, t.tenant.id), eq(users.externalId, "locked-user")));
    const before = await uafState(t.tenant.id);
    const refused = await t.api("POST", "/v1/uaf/requests", { operation: "AUTH", userId: "locked-user" });
    await expectAuthenticatorError(refused, 403, /locked/);
    expect(await uafState(t.tenant.id)).toEqual(before);
    const dereg = await jsonOf(
      await t.api("POST", "/v1/uaf/requests", { operation: "DEREG", userId: "locked-user" }),
    );
    expect(dereg.status).toBe("OK");
  });
});
