import http from "node:http";

export interface Answer {
  status: number;
  json: Record<string, unknown>;
  /** The instance (base URL) that answered. */
  base: string;
}

/**
 * A client of several Sesame instances, as a round-robin load balancer without health checks would be:
 * each request goes to the next instance on a new connection (no keep-alive), and a refused connection
 * (an instance that stopped listening, or is not up yet) is tried on the next instance. Nothing else is
 * retried: a request that reached an instance and failed is a failure.
 */
export class RoundRobin {
  private next = 0;
  /** Connections refused and tried elsewhere. */
  refused = 0;

  constructor(private readonly bases: string[]) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    for (let tries = 0; ; tries++) {
      const base = this.bases[this.next++ % this.bases.length]!;
      try {
        return await send(base, method, path, body, headers);
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
    req.end(payload);
  });
}
