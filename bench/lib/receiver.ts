/**
 * A webhook receiver on loopback (`node:http`, keep-alive) that answers 204 at once and counts what
 * arrives per endpoint path and event name, and the distinct `webhook-id`s (a repeat is a redelivery).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceiverCounts {
  /** requests per path, then per `event` of the body */
  byPath: Record<string, Record<string, number>>;
  requests: number;
  /** requests whose `webhook-id` had been seen before on that path */
  duplicates: number;
}

export class WebhookReceiver {
  private readonly server: http.Server;
  private readonly seen = new Map<string, Set<string>>();
  readonly counts: ReceiverCounts = { byPath: {}, requests: 0, duplicates: 0 };
  port = 0;

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        res.writeHead(204).end();
        const path = req.url ?? "/";
        let event = "(unparsable)";
        try {
          event = String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event?: unknown }).event);
        } catch {
          // counted as unparsable
        }
        this.counts.requests++;
        const perPath = (this.counts.byPath[path] ??= {});
        perPath[event] = (perPath[event] ?? 0) + 1;
        const id = String(req.headers["webhook-id"] ?? "");
        let ids = this.seen.get(path);
        if (!ids) this.seen.set(path, (ids = new Set()));
        if (ids.has(id)) this.counts.duplicates++;
        else ids.add(id);
      });
    });
    this.server.keepAliveTimeout = 30_000;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Deliveries of `event` received on `path`. */
  count(path: string, event: string): number {
    return this.counts.byPath[path]?.[event] ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
