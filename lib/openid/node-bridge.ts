import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * oidc-provider is a Koa application: it answers Node's `(req, res)`. Route handlers have a web
 * `Request`, and Next.js keeps the raw Node objects to itself, so this bridge builds the request side as a
 * readable stream with the headers, method and URL Koa reads, and collects what Koa writes into a
 * `Response`. Only what Koa and oidc-provider use is implemented (headers, status, `end`).
 */
export interface BridgeOptions {
  /** The path oidc-provider routes on, below its mount path (`/oauth/token?…`). */
  url: string;
  /** The full path the request came in on (`/t/{tenant}/oauth/token?…`): Koa's `originalUrl`. */
  originalUrl: string;
  /** The public origin (`SESAME_BASE_URL`): host and scheme of every URL oidc-provider builds. */
  origin: string;
  /** The client's address, as Sesame determined it. */
  ip: string | undefined;
}

export interface Bridge {
  req: IncomingMessage;
  res: ServerResponse;
  /** Resolves when Koa has ended the response. */
  response: Promise<Response>;
}

export async function bridge(request: Request, options: BridgeOptions): Promise<Bridge> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const origin = new URL(options.origin);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  headers.host = origin.host;
  delete headers["x-forwarded-proto"];
  delete headers["x-forwarded-host"];
  if (body !== undefined) {
    headers["content-length"] = String(body.length);
    delete headers["transfer-encoding"];
  }
  const stream = Readable.from(body && body.length > 0 ? [body] : []);
  const socket = { remoteAddress: options.ip, encrypted: origin.protocol === "https:" };
  const req = Object.assign(stream, {
    method: request.method,
    url: options.url,
    originalUrl: options.originalUrl,
    headers,
    httpVersion: "1.1",
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket,
    connection: socket,
  }) as unknown as IncomingMessage;

  const collected = new CollectingResponse();
  const response = new Promise<Response>((resolve) => {
    collected.once("finish", () => resolve(collected.toResponse()));
  });
  return { req, res: collected as unknown as ServerResponse, response };
}

class CollectingResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = "";
  headersSent = false;
  writableEnded = false;
  finished = false;
  socket = null;
  private readonly headerMap = new Map<string, string | string[]>();
  private readonly chunks: Buffer[] = [];

  setHeader(name: string, value: string | number | readonly string[]) {
    this.headerMap.set(
      name.toLowerCase(),
      Array.isArray(value) ? [...(value as string[])] : String(value as string | number),
    );
    return this;
  }
  getHeader(name: string) {
    return this.headerMap.get(name.toLowerCase());
  }
  getHeaders() {
    return Object.fromEntries(this.headerMap);
  }
  getHeaderNames() {
    return [...this.headerMap.keys()];
  }
  hasHeader(name: string) {
    return this.headerMap.has(name.toLowerCase());
  }
  removeHeader(name: string) {
    this.headerMap.delete(name.toLowerCase());
  }
  writeHead(status: number, ...rest: unknown[]) {
    this.statusCode = status;
    const headers = rest.find((value) => typeof value === "object" && value !== null);
    if (headers) for (const [k, v] of Object.entries(headers)) this.setHeader(k, v as string);
    return this;
  }
  write(chunk: string | Buffer) {
    this.headersSent = true;
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    return true;
  }
  end(chunk?: string | Buffer | (() => void)) {
    if (this.writableEnded) return this;
    if (chunk !== undefined && typeof chunk !== "function") this.write(chunk);
    this.headersSent = true;
    this.writableEnded = true;
    this.finished = true;
    queueMicrotask(() => this.emit("finish"));
    return this;
  }

  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headerMap) {
      if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
      else headers.set(name, value);
    }
    headers.delete("content-length");
    const status = this.statusCode;
    const body =
      status === 204 || status === 304 || this.chunks.length === 0 ? null : Buffer.concat(this.chunks);
    return new Response(body, { status, headers });
  }
}
