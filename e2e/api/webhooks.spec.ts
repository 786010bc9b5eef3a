import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { Webhook } from "standardwebhooks";
import { expect, test } from "../fixtures";

interface Received {
  id: string;
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * A webhook receiver on loopback that refuses the first attempt of every delivery (500) and accepts the
 * next (204): what a receiver that is down for a moment looks like.
 */
async function flakyReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const status = received.some((r) => r.id === id) ? 204 : 500;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ id, status, body: Buffer.concat(chunks).toString("utf8"), headers });
      res.writeHead(status).end();
    });
  });
  // Both address families: the server resolves `localhost` and may connect to ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  const { port } = server.address() as AddressInfo;
  return { received, url: `http://localhost:${port}/hooks`, close: () => server.close() };
}

test.describe("webhooks over HTTP", () => {
  test("admin changes reach a receiver that fails first: signed, retried, each attempt once", async ({
    request,
    demo,
  }, testInfo) => {
    test.setTimeout(90_000);
    const receiver = await flakyReceiver();
    const admin = { authorization: `Bearer ${demo.keys.admin}` };
    const base = `/t/${demo.tenantId}/admin`;
    try {
      const hook = await request.post(`${base}/webhooks`, {
        headers: admin,
        data: { callback: receiver.url, events: ["user.create", "session.create.admin"] },
      });
      expect(hook.status()).toBe(201);
      const { id: webhookId, secret } = (await hook.json()) as { id: string; secret: string };
      expect(secret).toMatch(/^whsec_/);

      const address = `webhook-e2e-${Date.now()}@example.com`;
      const created = await request.post(`${base}/users`, {
        headers: admin,
        data: { emails: [{ address, is_primary: true, is_verified: true }] },
      });
      expect(created.status()).toBe(200);
      const userId = ((await created.json()) as { id: string }).id;
      const minted = await request.post(`${base}/sessions`, { headers: admin, data: { user_id: userId } });
      expect(minted.status()).toBe(200);

      // Ours (other tests may make users of the demo tenant meanwhile): first attempt 500, the retry ≈5 s later 204.
      const ours = () =>
        receiver.received.filter((r) => {
          const body = JSON.parse(r.body) as { data?: { id?: string; user_id?: string } };
          return body.data?.id === userId || body.data?.user_id === userId;
        });
      await expect
        .poll(() => ours().filter((r) => r.status === 204).length, { timeout: 30_000, intervals: [500] })
        .toBe(2);

      const verifier = new Webhook(secret);
      const jwks = createRemoteJWKSet(
        new URL(`/t/${demo.tenantId}/.well-known/jwks.json`, testInfo.project.use.baseURL),
      );
      const events: string[] = [];
      for (const attempt of ours().filter((r) => r.status === 204)) {
        // Standard Webhooks: the HMAC over id.timestamp.body with the endpoint's secret.
        const payload = verifier.verify(attempt.body, attempt.headers) as {
          event: string;
          token: string;
          data: unknown;
        };
        // Hanko's way: the JWT signed with the tenant's key, checked against its JWKS.
        const { payload: claims } = await jwtVerify(payload.token, jwks);
        expect(claims.evt).toBe(payload.event);
        expect(claims.data).toEqual(payload.data);
        events.push(payload.event);
      }
      expect(events.sort()).toEqual(["session.create.admin", "user.create"]);

      // At least once, never twice at once: each delivery was tried exactly twice (one instance or two
      // instances on one Postgres), with the same webhook-id both times.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const byId = new Map<string, number[]>();
      for (const r of ours()) byId.set(r.id, [...(byId.get(r.id) ?? []), r.status]);
      expect([...byId.values()]).toEqual([
        [500, 204],
        [500, 204],
      ]);

      const log = await request.get(`${base}/webhooks/${webhookId}/deliveries`, { headers: admin });
      expect(log.status()).toBe(200);
      const deliveries = (await log.json()) as {
        status: string;
        attempts: { status_code: number | null }[];
      }[];
      const mine = deliveries.filter((d) => byId.has((d as unknown as { id: string }).id));
      expect(mine.map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
      expect(mine.every((d) => d.attempts.map((a) => a.status_code).join() === "500,204")).toBe(true);

      expect((await request.delete(`${base}/webhooks/${webhookId}`, { headers: admin })).status()).toBe(204);
    } finally {
      receiver.close();
    }
  });

  test("a callback to a private address is refused unless it is loopback with the development switch", async ({
    request,
    demo,
  }) => {
    const admin = { authorization: `Bearer ${demo.keys.admin}` };
    for (const callback of [
      "http://169.254.169.254/latest/meta-data/",
      "https://169.254.169.254/",
      "ftp://example.com/",
    ]) {
      const res = await request.post(`/t/${demo.tenantId}/admin/webhooks`, {
        headers: admin,
        data: { callback, events: ["user"] },
      });
      expect(res.status(), callback).toBe(400);
      expect(await res.json()).toMatchObject({ code: 400 });
    }
  });
});
