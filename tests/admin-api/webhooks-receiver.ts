import http from "node:http";
import type { AddressInfo } from "node:net";

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
