import { randomUUID } from "node:crypto";
import { handleAppLink, parseAppLink } from "@/lib/uaf-client";
import { SoftwareUafAuthenticator } from "@/lib/ceremonies/uaf";
import { expect, test } from "../fixtures";

/**
 * The Authenticator API over real HTTP, with the authenticator app's client (lib/uaf-client)
 * answering through the out-of-band link, as a phone would.
 */
test.describe("Authenticator API over HTTP", () => {
  test("REG, AUTH with a transaction and DEREG through the app link; QR code as PNG", async ({
    request,
    demo,
    baseURL,
  }) => {
    const auth = { authorization: `secret ${demo.keys.authenticator}` };
    const phone = SoftwareUafAuthenticator.create({ facetId: baseURL! });
    const userId = `e2e-${randomUUID()}`;

    const create = async (body: Record<string, unknown>) => {
      const res = await request.post("/v1/uaf/requests", { headers: auth, data: body });
      expect(res.status()).toBe(200);
      return res.json();
    };
    const linkOf = async (id: string) => {
      const res = await request.get(`/v1/uaf/requests/${id}/link`, { headers: auth });
      expect(res.status()).toBe(200);
      return (await res.json()).href as string;
    };

    const reg = await create({ operation: "REG", userId, username: "e2e user" });
    const qr = await request.get(`/v1/uaf/requests/${reg.id}/qrcode?width=200&fg=0a0a0a&bg=fafafa`, {
      headers: { authorization: `Bearer ${demo.keys.authenticator}` },
    });
    expect(qr.status()).toBe(200);
    expect(qr.headers()["content-type"]).toBe("image/png");
    expect((await qr.body()).subarray(1, 4).toString()).toBe("PNG");

    const registered = await handleAppLink(phone, await linkOf(reg.id), {
      deviceKeyInfo: { keyName: "e2e phone" },
    });
    expect(registered.outcome).toMatchObject({ status: "OK", operation: "REG" });
    const status = await (await request.get(`/v1/uaf/requests/${reg.id}`, { headers: auth })).json();
    expect(status).toMatchObject({ status: "OK", device: { keyName: "e2e phone" } });

    const payment = await create({ operation: "AUTH", userId, transaction: "Pay 5 EUR?" });
    const confirmed = await handleAppLink(phone, await linkOf(payment.id), {
      confirm: (summary) => summary.transactionText === "Pay 5 EUR?",
    });
    expect(confirmed.outcome).toMatchObject({ status: "OK" });

    const dereg = await create({ operation: "DEREG", userId });
    expect(dereg.status).toBe("OK");
    const removed = await handleAppLink(phone, await linkOf(dereg.id));
    expect(removed.removed).toBe(1);
    expect(phone.state.keys).toHaveLength(0);
    const devices = await request.get(`/mgmt/v1/registrations/${encodeURIComponent(userId)}`, {
      headers: auth,
    });
    expect(await devices.json()).toEqual([]);
  });

  test("a request created on one instance is answered on another sharing Postgres", async ({
    request,
    demo,
    baseURL,
  }, testInfo) => {
    const second = testInfo.project.metadata.secondInstanceURL as string | undefined;
    test.skip(!second, "needs two instances on one Postgres database (the postgres project)");
    const auth = { authorization: `secret ${demo.keys.authenticator}` };
    const phone = SoftwareUafAuthenticator.create({ facetId: baseURL! });
    const reg = await (
      await request.post("/v1/uaf/requests", {
        headers: auth,
        data: { operation: "REG", userId: `multi-${randomUUID()}` },
      })
    ).json();
    const href = (await (await request.get(`/v1/uaf/requests/${reg.id}/link`, { headers: auth })).json())
      .href;
    // The same link, answered by the second instance.
    const onSecond = new URL(parseAppLink(href).url);
    const secondOrigin = new URL(second!);
    onSecond.host = secondOrigin.host;
    const result = await handleAppLink(phone, onSecond.toString());
    expect(result.outcome?.status).toBe("OK");
    const status = await (await request.get(`/v1/uaf/requests/${reg.id}`, { headers: auth })).json();
    expect(status.status).toBe("OK");
  });
});
