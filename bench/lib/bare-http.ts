/**
 * What the two bare `node:http` servers of the benchmark share (bench/domain-server.ts and
 * bench/independent-floor.ts): a bounded JSON body reader, a JSON answer and an error with a status.
 * Benchmark plumbing only: the independent floor still imports no Sesame module.
 */
import type http from "node:http";

export const MAX_BODY_BYTES = 64 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request's JSON body (`{}` when empty); 413 over the limit, 400 when it is not JSON. */
export function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, "body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(text.trim() === "" ? {} : JSON.parse(text));
      } catch {
        reject(new HttpError(400, "malformed JSON"));
      }
    });
    req.on("error", reject);
  });
}

export function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
