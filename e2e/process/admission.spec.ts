import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../scripts/lib/postgres";
import { SERVER, startProcess, type ServerProcess } from "./server-process";

/**
 * Issue 28, part 4: past SESAME_MAX_REQUESTS_IN_FLIGHT a request is refused at once with 503 and
 * Retry-After in its surface's shape, on a connection that stays open, and the health probes are
 * always admitted. The bound is 2 here so that a burst of concurrent logins certainly crosses it; the
 * figures under 1,000 clients are a benchmark (`npm run bench:overload`), not this test.
 */
let server: ServerProcess | undefined;
test.afterEach(async () => {
  await server?.stop();
});

interface Answer {
  status: number;
  retryAfter: string | undefined;
  connection: string | undefined;
  body: string;
  /** The socket the answer came on: a refusal must not end it. */
  socket: unknown;
}

function post(agent: http.Agent, url: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { "x-forwarded-for": from } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers["retry-after"],
          connection: res.headers.connection,
          body,
          socket: req.socket,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      })
      .on("error", reject);
  });
}

test("past the bound on requests in flight: a quick 503 in the surface's shape, the connection kept, health probes admitted", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sesame-admission-"));
  const port = await freePort();
  const base = `http://localhost:${port}`;
  server = startProcess(SERVER, {
    PORT: String(port),
    SESAME_DATA_DIR: dataDir,
    DATABASE_URL: "",
    SESAME_MAX_REQUESTS_IN_FLIGHT: "2",
    // Each login comes from an address of its own, so the per-IP login limit does not answer instead.
    SESAME_TRUSTED_PROXIES: "127.0.0.1/32,::1/128",
  });
  await server.waitFor(/authenticator key\s+sesame_authenticator_\S+/);
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-keys.json"), "utf8")) as {
    tenantId: string;
  };
  const url = `${base}/passkey/${demo.tenantId}/login/initialize`;

  // Forty connections opened first (health probes, always admitted), so that the logins then arrive
  // together rather than one connection at a time.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
  const opened = await Promise.all(Array.from({ length: 40 }, () => get(agent, `${base}/livez`)));
  expect(opened.every((status) => status === 200)).toBe(true);
  const burst = Array.from({ length: 40 }, (_, i) => post(agent, url, `198.18.0.${i + 1}`));
  const probe = fetch(`${base}/livez`);
  const answers = await Promise.all(burst);
  expect((await probe).status).toBe(200);

  const refused = answers.filter((a) => a.status === 503);
  const served = answers.filter((a) => a.status === 200);
  expect(served.length + refused.length).toBe(answers.length);
  expect(served.length).toBeGreaterThanOrEqual(2);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expect(["1", "2", "3"]).toContain(answer.retryAfter);
    expect(answer.connection).not.toBe("close");
    expect(JSON.parse(answer.body)).toEqual({
      title: ["Service Unavailable"],
      details: ["Try again later (Retry-After)."],
      status: 503,
    });
  }

  // No refusal ended its connection (Node's client destroys a socket answered `Connection: close`).
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const answer of refused) expect((answer.socket as net.Socket).destroyed).toBe(false);

  // The refused client comes back on the same connection, once the burst is over, and is served.
  const again = await post(agent, url, "198.18.1.1");
  expect(again.status).toBe(200);
  const sockets = new Set(answers.map((a) => a.socket));
  expect(sockets.has(again.socket)).toBe(true);
  agent.destroy();

  // The metrics count the refusals (open on a localhost base URL).
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const shed = Number(/^sesame_http_requests_shed_total (\d+)$/m.exec(metrics)?.[1]);
  expect(shed).toBe(refused.length);
});
