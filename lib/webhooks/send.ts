import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import type { ResolvedCallback } from "./ssrf";

// Keep-alive connections, reused across deliveries to the same host. A connection is only ever opened to
// an address the SSRF guard checked (each request's own `lookup`), so reuse never reaches an unchecked one.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 32, timeout: 30_000 }),
};

/** The first bytes of a response body kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  response: string | null;
  /** null on a 2xx; else `http_<status>`, `timeout`, `address_refused`, `connection_failed: …`. */
  error: string | null;
}

/** Standard Webhooks headers for one attempt: one `v1,` signature per secret, space separated. */
export function signatureHeaders(
  id: string,
  at: Date,
  body: string,
  secrets: string[],
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" "),
  };
}

/**
 * POSTs `body` to the checked address of the callback (the connection never asks DNS again), with the
 * given headers; no redirect is followed (a 3xx is a failure). The whole exchange is bounded by
 * `timeoutMs`; only the first 2 KiB of the response are read.
 */
export function postJson(
  target: ResolvedCallback,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  return post(target, body, { "content-type": "application/json", ...headers }, timeoutMs);
}

/** {@link postJson} with a form body (`application/x-www-form-urlencoded`). */
export function postForm(
  target: ResolvedCallback,
  fields: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  const body = new URLSearchParams(fields).toString();
  return post(target, body, { "content-type": "application/x-www-form-urlencoded" }, timeoutMs);
}

function post(
  target: ResolvedCallback,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const secure = target.url.protocol === "https:";
  const client = secure ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: "POST",
        lookup,
        agent: secure ? agents.https : agents.http,
        headers: {
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Sesame-Webhooks/1",
          ...headers,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8");
          finish({
            statusCode: status,
            response: excerpt,
            error: status >= 200 && status < 300 ? null : `http_${status}`,
          });
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            // Enough: the rest is not read, and the connection is not reused.
            done();
            response.destroy();
          }
        });
        response.on("end", done);
        response.on("error", done);
        response.on("close", done);
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, response: null, error: "timeout" });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      finish({
        statusCode: null,
        response: null,
        error: `connection_failed: ${error.code ?? error.message}`.slice(0, 200),
      });
    });
    request.end(body);
  });
}
