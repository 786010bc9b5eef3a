import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { SoftwareUafAuthenticator, parseUafRequest } from "@/lib/ceremonies/uaf";
import { listAuditEvents } from "@/lib/audit";
import { sha256Hex } from "@/lib/crypto";
import {
  authenticatorRequest,
  createUafRequest,
  setupUafTenant,
  storedRegistrations,
  validateUafRequest,
} from "../helpers/authenticator-api";
import { createTestTenant } from "../helpers/tenants";

const ORIGIN = "http://localhost:3000";

async function setup() {
  const { tenant, keys } = await createTestTenant({ uaf: { allowTestAuthenticators: true } });
  const phone = SoftwareUafAuthenticator.create({ facetId: ORIGIN });
  const api = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
    authenticatorRequest(method, path, { apiKey: keys.authenticator, body });
  return { tenant, keys, phone, api };
}

describe("REG → AUTH with a transaction → DEREG through the HTTP routes", () => {
  it("registers, authenticates with a confirmed transaction, lists, renames and deregisters", async () => {
    const { tenant, phone, api } = await setup();

    const created = await api("POST", "/v1/uaf/requests", {
      operation: "REG",
      userId: "u-1",
      username: "alice",
    });
    expect(created.status).toBe(200);
    const reg = await created.json();
    expect(reg).toMatchObject({
      operation: "REG",
      status: "PENDING",
      userId: "u-1",
      username: "alice",
      deviceID: "",
    });
    expect(reg.links.map((link: { rel: string }) => link.rel)).toEqual([
      "validate",
      "get",
      "status",
      "cancel",
      "qrcode",
    ]);
    expect(new Date(reg.validUntil).getTime() - new Date(reg.createdAt).getTime()).toBe(120_000);
    const message = parseUafRequest(reg.request);
    expect(message.header).toMatchObject({ upv: { major: 1, minor: 1 }, op: "Reg" });

    const validated = await api("PUT", `/v1/uaf/requests/${reg.id}`, {
      uafResponse: phone.register(reg.request),
      deviceKeyInfo: { keyName: "Alice's phone", secret: "s3cret", deviceOs: "Android" },
    });
    const regDone = await validated.json();
    expect(regDone).toMatchObject({ status: "OK", device: { keyName: "Alice's phone" } });
    expect(regDone.deviceID).toMatch(/^[0-9a-f-]{36}$/);

    const auth = await (
      await api("POST", "/v1/uaf/requests", {
        operation: "AUTH",
        userId: "u-1",
        transaction: "Pay 10 EUR to Bob?",
      })
    ).json();
    expect(auth.transaction).toBe("Pay 10 EUR to Bob?");
    expect(phone.describe(auth.request).transactionText).toBe("Pay 10 EUR to Bob?");
    const authDone = await (
      await api("PUT", `/v1/uaf/requests/${auth.id}`, { uafResponse: phone.authenticate(auth.request) })
    ).json();
    expect(authDone).toMatchObject({ status: "OK", deviceID: regDone.deviceID });

    const devices = await (await api("GET", "/mgmt/v1/registrations/u-1")).json();
    expect(devices).toHaveLength(1);
    expect(devices[0]).toMatchObject({
      deviceId: regDone.deviceID,
      keyName: "Alice's phone",
      authenticatorType: "FIDO_UAF",
      deviceOs: "Android",
    });

    const renamed = await api("POST", `/mgmt/v1/registrations/rename/${regDone.deviceID}`, {
      newName: "Work phone",
    });
    expect(await renamed.json()).toEqual({ newName: "Work phone" });

    const dereg = await (await api("POST", "/v1/uaf/requests", { operation: "DEREG", userId: "u-1" })).json();
    expect(dereg).toMatchObject({ operation: "DEREG", status: "OK" });
    expect(parseUafRequest(dereg.request)).toMatchObject({ header: { op: "Dereg" } });
    phone.deregister(dereg.request);
    expect(await (await api("GET", "/mgmt/v1/registrations/u-1")).json()).toEqual([]);

    const { items } = await listAuditEvents(tenant.id, { limit: 50 });
    expect(items.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        "authenticator.request.created",
        "authenticator.registration.succeeded",
        "authenticator.authentication.succeeded",
        "authenticator.device.renamed",
        "authenticator.deregistration.succeeded",
      ]),
    );
  });

  it("renders the QR code as a PNG of the requested size", async () => {
    const { api } = await setup();
    const reg = await (await api("POST", "/v1/uaf/requests", { operation: "REG", userId: "u-2" })).json();
    const qr = await api("GET", `/v1/uaf/requests/${reg.id}/qrcode?width=300&fg=112233&bg=FFFFFF`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await qr.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([300, 300]);
    const colours = new Set<string>();
    for (let i = 0; i < image.data.length; i += 4) {
      colours.add(image.data.subarray(i, i + 3).toString("hex"));
    }
    expect([...colours].sort()).toEqual(["112233", "ffffff"]);
  });
});

describe("what a successful answer stores", () => {
  it("keeps deviceKeyInfo on the registration, the secret only as its SHA-256, and never shows either", async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-3", isSecondFactorOnly: true });
    expect(reg.isSecondFactorOnly).toBe(true);
    const deviceKeyInfo = {
      keyName: "  ",
      secret: "device-secret",
      pushToken: "push-token-123",
      manufacturer: "ACME",
      model: "Phone 1",
      osVersion: "14",
    };
    const ok = await validateUafRequest(t, reg.id, t.phone.register(reg.request), deviceKeyInfo);
    expect(ok).toMatchObject({ status: "OK", device: { keyName: "ACME Phone 1" } });
    const [row] = await storedRegistrations(t.tenant.id);
    expect(row).toMatchObject({
      name: "ACME Phone 1",
      secretHash: sha256Hex("device-secret"),
      pushToken: "push-token-123",
      isSecondFactorOnly: true,
      attestationType: "basic_surrogate",
      signCounter: 0,
      lastUsedAt: null,
    });
    const listed = await (await t.api("GET", "/mgmt/v1/registrations/u-3")).text();
    expect(JSON.parse(listed)).toEqual([
      expect.objectContaining({ deviceId: ok.deviceID, isSecondFactorOnly: true, model: "Phone 1" }),
    ]);
    for (const secret of ["device-secret", sha256Hex("device-secret"), "push-token-123"]) {
      expect(listed).not.toContain(secret);
      expect(JSON.stringify(ok)).not.toContain(secret);
    }

    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-3" });
    expect((await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request))).status).toBe("OK");
    const [used] = await storedRegistrations(t.tenant.id);
    expect(used!.signCounter).toBe(1);
    expect(used!.lastUsedAt).not.toBeNull();
  });

  it('accepts the response wrapped as {"uafProtocolMessage": …} and a non-ASCII transaction text', async () => {
    const t = await setupUafTenant();
    const reg = await createUafRequest(t, { operation: "REG", userId: "u-4" });
    const wrapped = JSON.stringify({ uafProtocolMessage: t.phone.register(reg.request) });
    expect((await validateUafRequest(t, reg.id, wrapped)).status).toBe("OK");

    const text = "Zahle 10 € an Jürgen? 支付";
    const auth = await createUafRequest(t, { operation: "AUTH", userId: "u-4", transaction: text });
    expect(t.phone.describe(auth.request).transactionText).toBe(text);
    const ok = await validateUafRequest(t, auth.id, t.phone.authenticate(auth.request));
    expect(ok).toMatchObject({ status: "OK", transaction: text });
  });
});
