import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

/**
 * Issue 15: kill -9 the instance while deliveries are in flight, start it again, and every committed
 * event still arrives. The deliveries the killed instance had claimed are leased to it (60 s); on the
 * embedded database the restarted instance knows the lease holder is dead (one process per data
 * folder) and ends those leases at boot, so it sends them at once.
 */

interface Received {
  deliveryId: string;
  event: string;
  dataId: string | undefined;
  /** What the receiver answered; null while held (or when the sender died first). */
  answered: number | null;
}

/**
 * A receiver on loopback (both families: the server resolves `localhost`) that holds every request
 * open, never answering, until `answer()` is called; from then on it answers 204.
 */
async function holdingReceiver() {
  const received: Received[] = [];
  let answering = false;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        event: string;
        token: string;
        data?: { id?: string };
      };
      const entry: Received = {
        deliveryId: String(req.headers["webhook-id"]),
        event: body.event,
        dataId: body.data?.id,
        answered: null,
      };
      received.push(entry);
      if (answering) {
        entry.answered = 204;
        res.writeHead(204).end();
      }
      // Else held: the sender's socket closes when it is killed.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "::", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: `http://localhost:${port}/hook`,
    answer: () => {
      answering = true;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const running: ServerProcess[] = [];
let receiver: Awaited<ReturnType<typeof holdingReceiver>> | undefined;
test.afterEach(async () => {
  receiver?.close();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

function start(port: number, dataDir: string): ServerProcess {
  const server = startProcess(SERVER, {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SESAME_SEED_DEMO: "true",
    SESAME_WEBHOOKS_ALLOW_PRIVATE: "true",
  });
  running.push(server);
  return server;
}

const BANNER_DONE = /authenticator key\s+sesame_authenticator_\S+/;
const USERS = 5;

test("deliveries in flight when the instance is killed with SIGKILL arrive after it restarts", async ({
  request,
}) => {
  // Two boots and the deliveries (a lease is not waited out: see above).
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-kill9-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  receiver = await holdingReceiver();

  const first = start(port, dataDir);
  await first.waitFor(BANNER_DONE);
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
    tenantId: string;
    keys: { admin: string };
  };
  const admin = { authorization: `Bearer ${demo.keys.admin}` };
  const api = `${base}/t/${demo.tenantId}/admin`;

  const hook = await request.post(`${api}/webhooks`, {
    headers: admin,
    data: { callback: receiver.url, events: ["user"] },
  });
  expect(hook.status(), await hook.text()).toBe(201);
  const webhookId = ((await hook.json()) as { id: string }).id;

  // Each creation commits a user.create event (and its delivery) before it answers.
  const userIds: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const created = await request.post(`${api}/users`, {
      headers: admin,
      data: { emails: [{ address: `kill9-${i}@example.com`, is_primary: true, is_verified: true }] },
    });
    expect(created.status(), await created.text()).toBe(200);
    userIds.push(((await created.json()) as { id: string }).id);
  }

  // In flight: every delivery claimed and its request held open by the receiver (well within the 10 s
  // attempt timeout, after which the killed instance would have recorded a failure and a retry).
  await expect
    .poll(() => new Set(receiver!.received.map((r) => r.dataId)).size, { timeout: 8_000, intervals: [50] })
    .toBe(USERS);
  expect(receiver.received.every((r) => r.answered === null)).toBe(true);

  // kill -9 the whole process group (the helper spawns it detached).
  process.kill(-(first.child.pid as number), "SIGKILL");
  await first.exited;
  expect(first.child.signalCode).toBe("SIGKILL");
  const killedAt = Date.now();
  const heldBeforeKill = receiver.received.length;

  receiver.answer();
  // Same folder: the lock the dead process left is taken over, the committed outbox is still there.
  const second = start(port, dataDir);
  await second.waitFor(BANNER_DONE);
  expect(second.output()).not.toContain("created now");

  // Every committed event arrives with a 2xx answer, without waiting out the killed instance's lease.
  const delivered = () =>
    new Set(
      receiver!.received
        .filter((r) => r.event === "user.create" && r.answered !== null && r.answered < 300)
        .map((r) => r.dataId),
    );
  await expect
    .poll(() => [...delivered()].sort(), { timeout: 30_000, intervals: [500] })
    .toEqual([...userIds].sort());
  test.info().annotations.push({
    type: "delivered after the kill",
    description: `${Math.round((Date.now() - killedAt) / 1000)} s`,
  });

  // The delivery log: five deliveries, all succeeded, one recorded attempt each (the killed instance's
  // attempt was never recorded: its lease was ended instead). The same delivery ids were resent.
  await expect
    .poll(
      async () => {
        const log = await request.get(`${api}/webhooks/${webhookId}/deliveries`, { headers: admin });
        expect(log.status()).toBe(200);
        const deliveries = (await log.json()) as {
          id: string;
          event: string;
          status: string;
          data: { id: string };
          attempts: { status_code: number | null }[];
        }[];
        return deliveries
          .map((d) => ({
            user: d.data.id,
            event: d.event,
            status: d.status,
            attempts: d.attempts.map((a) => a.status_code),
            resent: receiver!.received.filter((r) => r.deliveryId === d.id).length,
          }))
          .sort((a, b) => a.user.localeCompare(b.user));
      },
      { timeout: 10_000 },
    )
    .toEqual(
      [...userIds].sort().map((user) => ({
        user,
        event: "user.create",
        status: "succeeded",
        attempts: [204],
        // Held by the killed instance, then sent once by the new one.
        resent: 2,
      })),
    );
  expect(heldBeforeKill).toBe(USERS);
  expect(second.child.exitCode).toBeNull();
});
