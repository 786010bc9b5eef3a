import { beforeAll, describe, expect, it } from "vitest";
import {
  appLink,
  auditEventsOf,
  authenticatorRequest,
  createUafRequest,
  expectAuthenticatorError,
  jsonOf,
  registerDevice,
  setupUafTenant,
  uafState,
  validateUafRequest,
  type RequestBody,
  type UafTestTenant,
} from "../helpers/authenticator-api";

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/**
 * Tenant isolation: an Authenticator key names its tenant, and everything of another tenant is a
 * 404 {code, messsage} that changes nothing there. Both tenants have a user with the external id
 * "u-1", so ids that collide across tenants are covered too.
 */

let a: UafTestTenant;
let b: UafTestTenant;
let pendingA: RequestBody;
let deviceA: string;
let deviceB: string;

beforeAll(async () => {
  [a, b] = await Promise.all([setupUafTenant(), setupUafTenant()]);
  deviceA = await registerDevice(a, "u-1", { keyName: "A's phone" });
  deviceB = await registerDevice(b, "u-1", { keyName: "B's phone" });
  await registerDevice(a, "only-in-a", { phone: (await setupUafTenant()).phone });
  pendingA = await createUafRequest(a, { operation: "REG", userId: "u-pending" });
});

async function expectNotFound(res: Response, message: string): Promise<void> {
  expect(await expectAuthenticatorError(res, 404)).toEqual({ code: 404, messsage: message });
}

describe("another tenant's key", () => {
  it("gets 404 on every route of A's request, and A's request stays as it was", async () => {
    const before = await uafState(a.tenant.id);
    const answer = a.phone.register(pendingA.request);
    const calls: ["GET" | "PUT" | "DELETE", string, unknown][] = [
      ["GET", `/v1/uaf/requests/${pendingA.id}`, undefined],
      ["PUT", `/v1/uaf/requests/${pendingA.id}`, { uafResponse: answer }],
      ["DELETE", `/v1/uaf/requests/${pendingA.id}`, undefined],
      ["GET", `/v1/uaf/requests/${pendingA.id}/qrcode`, undefined],
      ["GET", `/v1/uaf/requests/${pendingA.id}/link`, undefined],
    ];
    for (const scheme of ["secret", "Bearer"]) {
      for (const [method, path, body] of calls) {
        const res = await authenticatorRequest(method, path, { apiKey: b.keys.authenticator, scheme, body });
        await expectNotFound(res, "request not found");
      }
    }
    expect(await uafState(a.tenant.id)).toEqual(before);

    // A's own key still completes it with the very response B tried to use.
    expect(await validateUafRequest(a, pendingA.id, answer)).toMatchObject({ status: "OK" });
  });

  it("sees only its own user's devices, never A's", async () => {
    const listed = await jsonOf<{ deviceId: string; keyName: string }[]>(
      await b.api("GET", "/mgmt/v1/registrations/u-1"),
    );
    expect(listed.map((device) => [device.deviceId, device.keyName])).toEqual([[deviceB, "B's phone"]]);
    await expectNotFound(await b.api("GET", "/mgmt/v1/registrations/only-in-a"), "user not found");
  });

  it("cannot rename or delete A's device (404), and A's device is unchanged", async () => {
    const before = await uafState(a.tenant.id);
    const beforeB = await uafState(b.tenant.id);
    await expectNotFound(
      await b.api("POST", `/mgmt/v1/registrations/rename/${deviceA}`, { newName: "pwned" }),
      "device not found",
    );
    // B has a user "u-1" too: the device must still be B's own.
    await expectNotFound(await b.api("DELETE", `/mgmt/v1/registrations/u-1/${deviceA}`), "device not found");
    await expectNotFound(
      await b.api("DELETE", `/mgmt/v1/registrations/only-in-a/${deviceA}`),
      "device not found",
    );
    expect(await uafState(a.tenant.id)).toEqual(before);
    expect(await uafState(b.tenant.id)).toEqual(beforeB);
    const [device] = await jsonOf<{ keyName: string }[]>(await a.api("GET", "/mgmt/v1/registrations/u-1"));
    expect(device!.keyName).toBe("A's phone");
  });

  it("cannot name A's devices in its own AUTH or DEREG requests (404), nor A's users", async () => {
    const before = await uafState(b.tenant.id);
    for (const operation of ["AUTH", "DEREG"]) {
      const res = await b.api("POST", "/v1/uaf/requests", { operation, userId: "u-1", deviceIds: [deviceA] });
      await expectNotFound(res, "device not found");
      const foreignUser = await b.api("POST", "/v1/uaf/requests", { operation, userId: "only-in-a" });
      await expectNotFound(foreignUser, "user not found");
    }
    expect(await uafState(b.tenant.id)).toEqual(before);
    expect((await a.api("GET", "/mgmt/v1/registrations/u-1")).status).toBe(200);
  });

  it("cannot authenticate with A's registration: a response from A's phone to B's request is refused", async () => {
    const auth = await createUafRequest(b, { operation: "AUTH", userId: "u-1" });
    const failed = await validateUafRequest(
      b,
      auth.id,
      a.phone.authenticate(auth.request, { ignorePolicy: true }),
    );
    expect(failed).toMatchObject({ status: "FAILED", error: { code: 1481, reason: "unknown_key_id" } });
  });

  it("an out-of-band token of A's request is useless at B and vice versa", async () => {
    const reqA = await createUafRequest(a, { operation: "REG", userId: "u-oob" });
    const reqB = await createUafRequest(b, { operation: "REG", userId: "u-oob" });
    const tokenA = (await appLink(a, reqA.id)).token;
    const res = await authenticatorRequest("GET", `/v1/uaf/app/requests/${reqB.id}?token=${tokenA}`);
    await expectAuthenticatorError(res, 401);
  });

  it("records the refusals in B's audit log, none in A's", async () => {
    const failuresB = (await auditEventsOf(b.tenant.id)).filter((event) => event.type.endsWith(".failed"));
    const types = new Set(failuresB.map((event) => event.type));
    for (const type of [
      "authenticator.request.validate.failed",
      "authenticator.request.cancel.failed",
      "authenticator.link.create.failed",
      "authenticator.devices.list.failed",
      "authenticator.device.rename.failed",
      "authenticator.device.delete.failed",
      "authenticator.request.create.failed",
    ]) {
      expect(types, type).toContain(type);
    }
    for (const event of failuresB.filter((e) => e.type !== "authenticator.authentication.failed")) {
      expect(event.details).toMatchObject({
        code: expect.any(String),
        reason: expect.stringMatching(/not found|Unauthorized/),
      });
    }
    const failuresA = (await auditEventsOf(a.tenant.id)).filter((event) => event.type.endsWith(".failed"));
    expect(failuresA).toEqual([]);
  });
});

/** Failures land in the tenant's audit log with their reason: FAILED validations, 404s, token refusals. */

/** The one new event of `type` that `call` writes, with its details. */
async function auditedBy(t: UafTestTenant, type: string, call: () => Promise<Response>) {
  const before = (await auditEventsOf(t.tenant.id, type)).length;
  await call();
  const events = await auditEventsOf(t.tenant.id, type);
  expect(events, type).toHaveLength(before + 1);
  return events[0]!;
}

describe("the audit log of the Authenticator API", () => {
  it("records FAILED validations with the UAF code and reason, and who answered", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const regFailed = await auditedBy(t, "authenticator.registration.failed", () =>
      t.api("PUT", `/v1/uaf/requests/${reg.id}`, {
        uafResponse: t.phone.register(reg.request, { tamperSignature: true }),
      }),
    );
    expect(regFailed.actor).toMatch(/^api_key:/);
    expect(regFailed.details).toEqual({
      requestId: reg.id,
      userId: "u-1",
      code: 1496,
      reason: "attestation_signature_invalid",
    });

    await registerDevice(t, "u-1");
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-1" });
    const { path } = await appLink(t, auth.id);
    const authFailed = await auditedBy(t, "authenticator.authentication.failed", () =>
      authenticatorRequest("PUT", path, {
        body: { uafResponse: t.phone.authenticate(auth.request, { tamperSignature: true }) },
      }),
    );
    expect(authFailed.actor).toBe("oob_token");
    expect(authFailed.details).toEqual({
      requestId: auth.id,
      userId: "u-1",
      code: 1498,
      reason: "signature_invalid",
    });
  });

  it("records 404s, 409s and refused creations with their reason and code", async () => {
    const t = await setupUafTenant();
    const done = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    await t.api("DELETE", `/v1/uaf/requests/${done.id}`);
    const cases: [string, () => Promise<Response>, string, RegExp][] = [
      [
        "authenticator.request.validate.failed",
        () => t.api("PUT", `/v1/uaf/requests/${UNKNOWN_ID}`, { uafResponse: "[]" }),
        "UAF_REQUEST_NOT_FOUND",
        /request not found/,
      ],
      [
        "authenticator.request.cancel.failed",
        () => t.api("DELETE", `/v1/uaf/requests/${UNKNOWN_ID}`),
        "UAF_REQUEST_NOT_FOUND",
        /request not found/,
      ],
      [
        "authenticator.link.create.failed",
        () => t.api("GET", `/v1/uaf/requests/${UNKNOWN_ID}/qrcode`),
        "UAF_REQUEST_NOT_FOUND",
        /request not found/,
      ],
      [
        "authenticator.link.create.failed",
        () => t.api("GET", `/v1/uaf/requests/${done.id}/link`),
        "UAF_REQUEST_NOT_PENDING",
        /no longer pending/,
      ],
      [
        "authenticator.devices.list.failed",
        () => t.api("GET", "/mgmt/v1/registrations/nobody"),
        "USER_NOT_FOUND",
        /user not found/,
      ],
      [
        "authenticator.device.rename.failed",
        () => t.api("POST", `/mgmt/v1/registrations/rename/${UNKNOWN_ID}`, { newName: "x" }),
        "DEVICE_NOT_FOUND",
        /device not found/,
      ],
      [
        "authenticator.device.delete.failed",
        () => t.api("DELETE", `/mgmt/v1/registrations/u-1/${UNKNOWN_ID}`),
        "DEVICE_NOT_FOUND",
        /device not found/,
      ],
      [
        "authenticator.request.create.failed",
        () => t.api("POST", "/v1/uaf/requests", { operation: "AUTH", userId: "nobody" }),
        "USER_NOT_FOUND",
        /user not found/,
      ],
      [
        "authenticator.request.create.failed",
        () => t.api("POST", "/v1/uaf/requests", { operation: "REG", userId: "u-1", transaction: "Pay?" }),
        "VALIDATION_FAILED",
        /body\.transaction/,
      ],
    ];
    for (const [type, call, code, reason] of cases) {
      const event = await auditedBy(t, type, call);
      expect(event.actor, type).toMatch(/^api_key:/);
      expect(event.details, type).toEqual({ code, reason: expect.stringMatching(reason) });
    }
  });

  it("records refused out-of-band tokens (401) in the tenant of the request", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    await appLink(t, reg.id);
    const fetched = await auditedBy(t, "authenticator.request.fetch.failed", () =>
      authenticatorRequest("GET", `/v1/uaf/app/requests/${reg.id}?token=wrong`),
    );
    expect(fetched.details).toEqual({
      code: "OOB_TOKEN_INVALID",
      reason: expect.stringContaining("invalid or expired out-of-band token"),
    });
    const answered = await auditedBy(t, "authenticator.request.validate.failed", () =>
      authenticatorRequest("PUT", `/v1/uaf/app/requests/${reg.id}?token=wrong`, {
        body: { uafResponse: t.phone.register(reg.request) },
      }),
    );
    expect(answered.actor).toBe("oob_token");
    expect(answered.details).toEqual({
      code: "OOB_TOKEN_INVALID",
      reason: expect.stringContaining("invalid or expired out-of-band token"),
    });
  });

  it("does not audit the status poll", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-1" });
    const before = await auditEventsOf(t.tenant.id);
    await t.api("GET", `/v1/uaf/requests/${reg.id}`);
    await t.api("GET", `/v1/uaf/requests/${UNKNOWN_ID}`);
    expect(await auditEventsOf(t.tenant.id)).toEqual(before);
  });
});
