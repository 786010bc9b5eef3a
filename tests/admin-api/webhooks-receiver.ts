import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, beforeEach } from "vitest";
import { closeDatabase, configureDatabase } from "@/lib/db";
import { configureWebhooks } from "@/lib/webhooks";

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Responder = (
  request: ReceivedWebhook,
  response: http.ServerResponse,
  index: number,
) => void | Promise<void>;

/** A webhook receiver on loopback: records every request and answers as `respond` says (default 204). */
export async function startReceiver(respond?: Responder) {
  const received: ReceivedWebhook[] = [];
  let responder: Responder = respond ?? ((_request, response) => void response.writeHead(204).end());
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString() };
      received.push(request);
      void responder(request, res, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respondWith(next: Responder) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * On Postgres (DATABASE_URL set), gives the calling test file a database of its own: a worker claims
 * every due delivery of its database, so files that run workers must not share one. Returns its URL.
 * On PGlite each file already has its own in-memory database: returns undefined.
 */
export async function useOwnPostgresDatabase(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const { default: postgres } = await import("postgres");
  const name = `webhooks_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  await closeDatabase();
  configureDatabase({ kind: "postgres", url: own.toString() });
  return own.toString();
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The hooks of a file that runs deliveries: its own Postgres database, fast retries (three at once) with
 * private addresses allowed for each test, `drain` after each, then its receivers closed. Returns a
 * `startReceiver` whose receivers close after the test.
 */
export function deliveryTestHooks(drain: () => Promise<unknown>) {
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    await useOwnPostgresDatabase();
  });
  beforeEach(() => {
    configureWebhooks({ allowPrivate: true, retrySchedule: [0, 0, 0], jitter: 0, timeoutMs: 3000 });
  });
  afterEach(async () => {
    await drain();
    configureWebhooks(undefined);
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });
  return async (...args: Parameters<typeof startReceiver>): Promise<Receiver> => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
}
