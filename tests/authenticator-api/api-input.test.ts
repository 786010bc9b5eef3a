import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/api-keys";
import {
  authenticatorRequest,
  createUafRequest,
  expectAuthenticatorError,
  jsonOf,
  registerDevice,
  setupUafTenant,
  storedRequest,
  uafState,
  validateUafRequest,
  type UafTestTenant,
} from "../helpers/authenticator-api";

/**
 * Bad input on every endpoint: keys and schemes, bodies, ids, query parameters. Each refusal has the
 * Authenticator API's wire shape ({code, message}, {code, messsage} on 404) and changes nothing.
 */

type Method = "GET" | "POST" | "PUT" | "DELETE";
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const BIG = "x".repeat(65 * 1024);

let t: UafTestTenant;
let deviceId: string;
let requestId: string;

beforeAll(async () => {
  t = await setupUafTenant();
  deviceId = await registerDevice(t, "u-1", { keyName: "phone" });
  requestId = (await createUafRequest(t, { operation: "REG", userId: "u-1" })).id;
});

/** The keyed endpoints, with a body that would be accepted. */
function keyedEndpoints(): [Method, string, unknown][] {
  return [
    ["POST", "/v1/uaf/requests", { operation: "REG", userId: "u-new" }],
    ["GET", `/v1/uaf/requests/${requestId}`, undefined],
    ["PUT", `/v1/uaf/requests/${requestId}`, { uafResponse: "[]" }],
    ["DELETE", `/v1/uaf/requests/${requestId}`, undefined],
    ["GET", `/v1/uaf/requests/${requestId}/qrcode`, undefined],
    ["GET", `/v1/uaf/requests/${requestId}/link`, undefined],
    ["GET", "/mgmt/v1/registrations/u-1", undefined],
    ["POST", `/mgmt/v1/registrations/rename/${deviceId}`, { newName: "renamed" }],
    ["DELETE", `/mgmt/v1/registrations/u-1/${deviceId}`, undefined],
  ];
}

/** Runs `calls` and checks that the tenant's users, requests and registrations did not change. */
async function unchanged(calls: () => Promise<void>): Promise<void> {
  const before = await uafState(t.tenant.id);
  await calls();
  expect(await uafState(t.tenant.id)).toEqual(before);
}

describe("API keys", () => {
  it("refuses a missing, wrong, revoked or other-scope key on every keyed endpoint with 401", async () => {
    const { key: revokedKey, secret: revoked } = await createApiKey(t.tenant.id, {
      name: "revoked",
      scopes: ["authenticator"],
    });
    await revokeApiKey(t.tenant.id, revokedKey.id);
    const credentials: Record<string, string>[] = [
      {},
      { authorization: "secret sesame_authenticator_wrong" },
      { authorization: "Bearer sesame_authenticator_wrong" },
      { authorization: `secret ${revoked}` },
      { authorization: `secret ${t.keys.passkey}` },
      { authorization: `Bearer ${t.keys.admin}` },
      { authorization: `Basic ${t.keys.authenticator}` },
      { authorization: `hanko ${t.keys.authenticator}` },
      { authorization: "secret" },
      { authorization: `${t.keys.authenticator}` },
      { apikey: t.keys.authenticator },
    ];
    await unchanged(async () => {
      for (const [method, path, body] of keyedEndpoints()) {
        for (const headers of credentials) {
          const res = await authenticatorRequest(method, path, { body, headers });
          await expectAuthenticatorError(res, 401, "Unauthorized");
        }
      }
    });
  });

  it.each(["secret", "Bearer", "SECRET", "bearer"])(
    "accepts the key as `Authorization: %s <key>` on every keyed endpoint",
    async (scheme) => {
      const call = (method: Method, path: string, body?: unknown) =>
        authenticatorRequest(method, path, { apiKey: t.keys.authenticator, scheme, body });
      const userId = `u-${scheme}`;
      const reg = await jsonOf(await call("POST", "/v1/uaf/requests", { operation: "REG", userId }));
      expect((await call("GET", `/v1/uaf/requests/${reg.id}`)).status).toBe(200);
      expect((await call("GET", `/v1/uaf/requests/${reg.id}/qrcode`)).status).toBe(200);
      expect((await call("GET", `/v1/uaf/requests/${reg.id}/link`)).status).toBe(200);
      const ok = await jsonOf(
        await call("PUT", `/v1/uaf/requests/${reg.id}`, { uafResponse: t.phone.register(reg.request) }),
      );
      expect(ok.status).toBe("OK");
      expect((await call("GET", `/mgmt/v1/registrations/${userId}`)).status).toBe(200);
      const renamed = await call("POST", `/mgmt/v1/registrations/rename/${ok.deviceID}`, { newName: "n" });
      expect(await jsonOf(renamed)).toEqual({ newName: "n" });
      const auth = await jsonOf(await call("POST", "/v1/uaf/requests", { operation: "AUTH", userId }));
      expect(await jsonOf(await call("DELETE", `/v1/uaf/requests/${auth.id}`))).toMatchObject({
        status: "INVALIDATED",
      });
      expect((await call("DELETE", `/mgmt/v1/registrations/${userId}/${ok.deviceID}`)).status).toBe(204);
    },
  );

  it("never accepts an API key on the app routes: they need the out-of-band token", async () => {
    await unchanged(async () => {
      for (const method of ["GET", "PUT"] as const) {
        const res = await authenticatorRequest(method, `/v1/uaf/app/requests/${requestId}`, {
          apiKey: t.keys.authenticator,
          body: method === "PUT" ? { uafResponse: "[]" } : undefined,
        });
        await expectAuthenticatorError(res, 401);
      }
    });
  });
});

describe("POST /v1/uaf/requests", () => {
  const cases: [string, unknown, RegExp][] = [
    ["no operation", { userId: "u-1" }, /body\.operation/],
    ["an unknown operation", { operation: "LOGIN", userId: "u-1" }, /body\.operation/],
    ["a lower-case operation", { operation: "reg", userId: "u-1" }, /body\.operation/],
    ["a non-string operation", { operation: 1, userId: "u-1" }, /body\.operation/],
    ["no userId", { operation: "REG", username: "alice" }, /body\.userId: is required/],
    ["an empty userId", { operation: "REG", userId: "  " }, /body\.userId/],
    ["a userId over 128 characters", { operation: "REG", userId: "u".repeat(129) }, /body\.userId/],
    [
      "a username over 128 characters",
      { operation: "REG", userId: "u-1", username: "a".repeat(129) },
      /body\.username/,
    ],
    [
      "a displayName over 128 characters",
      { operation: "REG", userId: "u-1", displayName: "a".repeat(129) },
      /body\.displayName/,
    ],
    [
      "a bad attestationConveyancePreference",
      { operation: "REG", userId: "u-1", attestationConveyancePreference: "enterprise" },
      /body\.attestationConveyancePreference/,
    ],
    [
      "a bad authenticatorSelectionCriteria.userVerification",
      { operation: "REG", userId: "u-1", authenticatorSelectionCriteria: { userVerification: "always" } },
      /body\.authenticatorSelectionCriteria\.userVerification/,
    ],
    [
      "a bad authenticatorSelectionCriteria.authenticatorAttachment",
      { operation: "REG", userId: "u-1", authenticatorSelectionCriteria: { authenticatorAttachment: "usb" } },
      /body\.authenticatorSelectionCriteria\.authenticatorAttachment/,
    ],
    [
      "a non-boolean requireResidentKey",
      { operation: "REG", userId: "u-1", authenticatorSelectionCriteria: { requireResidentKey: "yes" } },
      /body\.authenticatorSelectionCriteria\.requireResidentKey/,
    ],
    ["a transaction on REG", { operation: "REG", userId: "u-1", transaction: "Pay?" }, /body\.transaction/],
    [
      "a transaction on DEREG",
      { operation: "DEREG", userId: "u-1", transaction: "Pay?" },
      /body\.transaction/,
    ],
    [
      "a transaction over 200 characters",
      { operation: "AUTH", userId: "u-1", transaction: "t".repeat(201) },
      /body\.transaction/,
    ],
    ["an empty transaction", { operation: "AUTH", userId: "u-1", transaction: "" }, /body\.transaction/],
    ["deviceIds on REG", { operation: "REG", userId: "u-1", deviceIds: [UNKNOWN_ID] }, /body\.deviceIds/],
    [
      "deviceIds that are not UUIDs",
      { operation: "AUTH", userId: "u-1", deviceIds: ["device-1"] },
      /body\.deviceIds/,
    ],
    ["an empty deviceIds list", { operation: "AUTH", userId: "u-1", deviceIds: [] }, /body\.deviceIds/],
    [
      "a non-boolean isSecondFactorOnly",
      { operation: "REG", userId: "u-1", isSecondFactorOnly: "no" },
      /body\.isSecondFactorOnly/,
    ],
    [
      "a clientData.remoteAddress over 64 characters",
      { operation: "REG", userId: "u-1", clientData: { remoteAddress: "1".repeat(65) } },
      /body\.clientData\.remoteAddress/,
    ],
    ["an array body", [{ operation: "REG", userId: "u-1" }], /body/],
    ["a string body", JSON.stringify("REG"), /body/],
  ];

  it.each(cases)("refuses %s with 400", async (_name, body, message) => {
    await unchanged(async () => {
      await expectAuthenticatorError(await t.api("POST", "/v1/uaf/requests", body), 400, message);
    });
  });

  it("refuses a body that is not JSON (400), not declared JSON (415), too big (413) or missing (400)", async () => {
    await unchanged(async () => {
      await expectAuthenticatorError(
        await t.api("POST", "/v1/uaf/requests", '{"operation":'),
        400,
        "not valid JSON",
      );
      const asText = await t.api(
        "POST",
        "/v1/uaf/requests",
        JSON.stringify({ operation: "REG", userId: "u-1" }),
        {
          headers: { "content-type": "text/plain" },
        },
      );
      await expectAuthenticatorError(asText, 415, "application/json");
      const big = await t.api("POST", "/v1/uaf/requests", { operation: "REG", userId: "u-1", username: BIG });
      await expectAuthenticatorError(big, 413);
      await expectAuthenticatorError(await t.api("POST", "/v1/uaf/requests"), 400, "body");
    });
  });

  it("refuses AUTH and DEREG for an unknown user (404) and for a user without registrations (400)", async () => {
    await createUafRequest(t, { operation: "REG", userId: "u-none" }); // creates the user, no device
    await unchanged(async () => {
      for (const operation of ["AUTH", "DEREG"]) {
        const unknown = await t.api("POST", "/v1/uaf/requests", { operation, userId: "nobody" });
        await expectAuthenticatorError(unknown, 404, "user not found");
        const none = await t.api("POST", "/v1/uaf/requests", { operation, userId: "u-none" });
        await expectAuthenticatorError(none, 400, "no registered authenticator");
      }
    });
  });
});

describe("GET, PUT and DELETE /v1/uaf/requests/{id}", () => {
  it("refuses ids that are not UUIDs with 400 and unknown ids with 404 {code, messsage}", async () => {
    await unchanged(async () => {
      for (const method of ["GET", "PUT", "DELETE"] as const) {
        const body = method === "PUT" ? { uafResponse: "[]" } : undefined;
        for (const id of ["not-a-uuid", "1", `${requestId}x`]) {
          const res = await t.api(method, `/v1/uaf/requests/${id}`, body);
          await expectAuthenticatorError(res, 400, "params.id");
        }
        const res = await t.api(method, `/v1/uaf/requests/${UNKNOWN_ID}`, body);
        expect(await expectAuthenticatorError(res, 404)).toEqual({
          code: 404,
          messsage: "request not found",
        });
      }
    });
  });

  it("reads an upper-case spelling of the id as the same request", async () => {
    const read = await jsonOf(await t.api("GET", `/v1/uaf/requests/${requestId.toUpperCase()}`));
    expect(read).toMatchObject({ id: requestId, status: "PENDING" });
  });

  const putCases: [string, unknown, RegExp][] = [
    ["no uafResponse", {}, /body\.uafResponse/],
    ["a non-string uafResponse", { uafResponse: [{ header: {} }] }, /body\.uafResponse/],
    [
      "a keyName over 64 characters",
      { uafResponse: "[]", deviceKeyInfo: { keyName: "k".repeat(65) } },
      /body\.deviceKeyInfo\.keyName/,
    ],
    [
      "a deviceOs over 64 characters",
      { uafResponse: "[]", deviceKeyInfo: { deviceOs: "o".repeat(65) } },
      /body\.deviceKeyInfo\.deviceOs/,
    ],
    [
      "a secret over 1024 characters",
      { uafResponse: "[]", deviceKeyInfo: { secret: "s".repeat(1025) } },
      /body\.deviceKeyInfo\.secret/,
    ],
    [
      "a deviceKeyInfo that is not an object",
      { uafResponse: "[]", deviceKeyInfo: "phone" },
      /body\.deviceKeyInfo/,
    ],
  ];

  it.each(putCases)(
    "PUT refuses %s with 400 and leaves the request PENDING",
    async (_name, body, message) => {
      await unchanged(async () => {
        await expectAuthenticatorError(
          await t.api("PUT", `/v1/uaf/requests/${requestId}`, body),
          400,
          message,
        );
      });
      expect((await storedRequest(requestId))!.status).toBe("PENDING");
    },
  );

  it("PUT refuses non-JSON (400), a wrong content type (415), a body over 64 KiB (413) and no body (400)", async () => {
    await unchanged(async () => {
      const path = `/v1/uaf/requests/${requestId}`;
      await expectAuthenticatorError(await t.api("PUT", path, "uafResponse=[]"), 400, "not valid JSON");
      const asForm = await t.api("PUT", path, JSON.stringify({ uafResponse: "[]" }), {
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      await expectAuthenticatorError(asForm, 415);
      await expectAuthenticatorError(await t.api("PUT", path, { uafResponse: BIG }), 413, "65536");
      await expectAuthenticatorError(await t.api("PUT", path), 400, "body");
    });
  });
});

describe("GET /v1/uaf/requests/{id}/qrcode and /link", () => {
  const badQueries = [
    "width=63",
    "width=2049",
    "width=abc",
    "width=",
    "width=100.5",
    "width=-100",
    "height=10",
    "height=4096",
    "height=1e9",
    "fg=%23112233",
    "fg=#112233",
    "fg=12345",
    "fg=1234567",
    "fg=gggggg",
    "bg=%23ffffff",
    "bg=fff",
    "bg=red",
  ];

  it.each(badQueries)("refuses ?%s with 400 and mints no token", async (query) => {
    await unchanged(async () => {
      const res = await t.api("GET", `/v1/uaf/requests/${requestId}/qrcode?${query}`);
      await expectAuthenticatorError(res, 400, /query\.(width|height|fg|bg)/);
    });
  });

  it("accepts the bounds and hex digits in either case", async () => {
    for (const query of ["width=64", "height=2048", "width=64&height=2048", "fg=AbCdEf&bg=000000", ""]) {
      const res = await t.api("GET", `/v1/uaf/requests/${requestId}/qrcode?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    }
  });

  it("answers 400 for a non-UUID id, 404 for an unknown one and 409 for a request that is not pending", async () => {
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-qr" });
    await jsonOf(await t.api("DELETE", `/v1/uaf/requests/${reg.id}`));
    await unchanged(async () => {
      for (const suffix of ["qrcode", "link"]) {
        await expectAuthenticatorError(
          await t.api("GET", `/v1/uaf/requests/nope/${suffix}`),
          400,
          "params.id",
        );
        const unknown = await t.api("GET", `/v1/uaf/requests/${UNKNOWN_ID}/${suffix}`);
        expect(await expectAuthenticatorError(unknown, 404)).toEqual({
          code: 404,
          messsage: "request not found",
        });
        const done = await t.api("GET", `/v1/uaf/requests/${reg.id}/${suffix}`);
        await expectAuthenticatorError(done, 409, "no longer pending");
      }
    });
  });
});

describe("GET and PUT /v1/uaf/app/requests/{id}", () => {
  it("refuses a non-UUID id (400), an unknown id (404), a missing (401) or over-long token (400)", async () => {
    await unchanged(async () => {
      for (const method of ["GET", "PUT"] as const) {
        const body = method === "PUT" ? { uafResponse: "[]" } : undefined;
        const call = (path: string) => authenticatorRequest(method, path, { body });
        await expectAuthenticatorError(await call("/v1/uaf/app/requests/nope?token=abc"), 400, "params.id");
        const unknown = await call(`/v1/uaf/app/requests/${UNKNOWN_ID}?token=abc`);
        expect(await expectAuthenticatorError(unknown, 404)).toEqual({
          code: 404,
          messsage: "request not found",
        });
        await expectAuthenticatorError(await call(`/v1/uaf/app/requests/${requestId}`), 401);
        await expectAuthenticatorError(await call(`/v1/uaf/app/requests/${requestId}?token=`), 401);
        const long = await call(`/v1/uaf/app/requests/${requestId}?token=${"t".repeat(257)}`);
        await expectAuthenticatorError(long, 400, "query.token");
      }
    });
  });

  it("PUT refuses bodies it cannot read (400, 415, 413) before looking at the token", async () => {
    await unchanged(async () => {
      const path = `/v1/uaf/app/requests/${requestId}?token=abc`;
      await expectAuthenticatorError(
        await authenticatorRequest("PUT", path, { body: "{" }),
        400,
        "not valid JSON",
      );
      await expectAuthenticatorError(
        await authenticatorRequest("PUT", path, { body: {} }),
        400,
        "body.uafResponse",
      );
      const asText = await authenticatorRequest("PUT", path, {
        body: "[]",
        headers: { "content-type": "text/plain" },
      });
      await expectAuthenticatorError(asText, 415);
      await expectAuthenticatorError(
        await authenticatorRequest("PUT", path, { body: { uafResponse: BIG } }),
        413,
      );
    });
  });
});

describe("device management", () => {
  it("GET /mgmt/v1/registrations/{userId}: 400 for an empty or over-long userId, 404 for an unknown user", async () => {
    await unchanged(async () => {
      await expectAuthenticatorError(
        await t.api("GET", `/mgmt/v1/registrations/${"u".repeat(129)}`),
        400,
        "params.userId",
      );
      await expectAuthenticatorError(await t.api("GET", "/mgmt/v1/registrations/%20"), 400, "params.userId");
      const unknown = await t.api("GET", "/mgmt/v1/registrations/nobody");
      expect(await expectAuthenticatorError(unknown, 404)).toEqual({ code: 404, messsage: "user not found" });
    });
    const devices = await jsonOf<{ deviceId: string; keyName: string }[]>(
      await t.api("GET", "/mgmt/v1/registrations/u-1"),
    );
    expect(devices.map((device) => device.deviceId)).toContain(deviceId);
  });

  const renameCases: [string, unknown, RegExp][] = [
    ["no newName", {}, /body\.newName/],
    ["an empty newName", { newName: "" }, /body\.newName/],
    ["a blank newName", { newName: "   " }, /body\.newName/],
    ["a newName over 64 characters", { newName: "n".repeat(65) }, /body\.newName/],
    ["a non-string newName", { newName: 42 }, /body\.newName/],
  ];

  it.each(renameCases)("POST …/rename/{deviceId} refuses %s with 400", async (_name, body, message) => {
    await unchanged(async () => {
      const res = await t.api("POST", `/mgmt/v1/registrations/rename/${deviceId}`, body);
      await expectAuthenticatorError(res, 400, message);
    });
  });

  it("POST …/rename/{deviceId}: 400 for a non-UUID id, 404 for an unknown device, 415, 413", async () => {
    await unchanged(async () => {
      const body = { newName: "x" };
      const bad = await t.api("POST", "/mgmt/v1/registrations/rename/phone-1", body);
      await expectAuthenticatorError(bad, 400, "params.deviceId");
      const unknown = await t.api("POST", `/mgmt/v1/registrations/rename/${UNKNOWN_ID}`, body);
      expect(await expectAuthenticatorError(unknown, 404)).toEqual({
        code: 404,
        messsage: "device not found",
      });
      const asText = await t.api("POST", `/mgmt/v1/registrations/rename/${deviceId}`, "x", {
        headers: { "content-type": "text/plain" },
      });
      await expectAuthenticatorError(asText, 415);
      const big = await t.api("POST", `/mgmt/v1/registrations/rename/${deviceId}`, { newName: BIG });
      await expectAuthenticatorError(big, 413);
    });
  });

  it("accepts a name of exactly 64 characters, trimmed", async () => {
    const name = "n".repeat(64);
    const res = await t.api("POST", `/mgmt/v1/registrations/rename/${deviceId}`, { newName: `  ${name} ` });
    expect(await jsonOf(res)).toEqual({ newName: name });
    const [device] = await jsonOf<{ keyName: string }[]>(await t.api("GET", "/mgmt/v1/registrations/u-1"));
    expect(device!.keyName).toBe(name);
  });

  it("DELETE …/{userId}/{deviceId}: 400 for bad ids, 404 for an unknown device or another user's", async () => {
    const other = await registerDevice(t, "u-2", {
      phone: (await setupUafTenant()).phone,
    });
    await unchanged(async () => {
      await expectAuthenticatorError(
        await t.api("DELETE", "/mgmt/v1/registrations/u-1/phone-1"),
        400,
        "params.deviceId",
      );
      const longUser = await t.api("DELETE", `/mgmt/v1/registrations/${"u".repeat(129)}/${deviceId}`);
      await expectAuthenticatorError(longUser, 400, "params.userId");
      for (const path of [
        `/mgmt/v1/registrations/u-1/${UNKNOWN_ID}`,
        `/mgmt/v1/registrations/u-1/${other}`,
        `/mgmt/v1/registrations/nobody/${deviceId}`,
      ]) {
        expect(await expectAuthenticatorError(await t.api("DELETE", path), 404)).toEqual({
          code: 404,
          messsage: "device not found",
        });
      }
    });
  });

  it("a PUT with a valid answer still works after all the refusals above", async () => {
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-last" });
    expect((await validateUafRequest(t, reg.id, t.phone.register(reg.request))).status).toBe("OK");
  });
});
