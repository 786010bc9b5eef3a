import http from "node:http";

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  /** The instance (base URL) that answered. */
  base: string;
}

/**
 * A client of several Sesame instances, as a round-robin load balancer would be: each request goes to
 * the next instance in rotation on a new connection (no keep-alive), and a refused connection (an
 * instance that stopped listening, or is not up yet) is tried on the next instance. Nothing else is
 * retried: a request that reached an instance and failed is a failure.
 *
 * `remove(base)` takes an instance out of rotation, as Kubernetes removes a terminating pod's endpoint
 * before its `preStop` sleep ends and SIGTERM is sent; `connected(base)` resolves once no connection
 * to it is still being opened (the requests already sent keep going: the instance must finish them).
 */
export class RoundRobin {
  private next = 0;
  private readonly out = new Set<string>();
  private readonly connecting = new Map<string, number>();
  private readonly waiting: { base: string; resolve: () => void }[] = [];
  private readonly pending = new Map<string, number>();
  /** Connections refused and tried elsewhere. */
  refused = 0;

  /** Requests sent to `base` and not answered yet. */
  inFlight(base: string): number {
    return this.pending.get(base) ?? 0;
  }

  constructor(private readonly bases: string[]) {}

  remove(base: string) {
    this.out.add(base);
  }

  add(base: string) {
    this.out.delete(base);
  }

  connected(base: string): Promise<void> {
    if (!this.connecting.get(base)) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ base, resolve }));
  }

  private opened(base: string, delta: number) {
    const count = (this.connecting.get(base) ?? 0) + delta;
    this.connecting.set(base, count);
    if (count > 0) return;
    for (const waiter of this.waiting.filter((w) => w.base === base)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    for (let tries = 0; ; tries++) {
      let base = this.bases[this.next++ % this.bases.length]!;
      for (let i = 0; this.out.has(base) && i < this.bases.length; i++) {
        base = this.bases[this.next++ % this.bases.length]!;
      }
      try {
        this.opened(base, 1);
        this.pending.set(base, this.inFlight(base) + 1);
        let open = true;
        const done = () => {
          if (open) this.opened(base, -1);
          open = false;
        };
        return await send(base, method, path, body, headers, done).finally(() => {
          done();
          this.pending.set(base, this.inFlight(base) - 1);
        });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== "ECONNREFUSED" || tries > 200) throw error;
        this.refused++;
        // Every instance refused: one is restarting; wait a moment.
        if (tries % this.bases.length === this.bases.length - 1) await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

function send(
  base: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  onConnect: () => void,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text);
          } catch {
            json = { text };
          }
          resolve({ status: res.statusCode ?? 0, json, base });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.on("socket", (socket) => socket.once("connect", onConnect));
    req.end(payload);
  });
}
