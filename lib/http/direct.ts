import type { IncomingMessage, ServerResponse } from "node:http";
import { getLogger } from "@/lib/log";
import { MAX_BODY_BYTES } from "./body";

type RouteHandler = (
  req: Request,
  context: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;

/** A route file's exports: its method handlers (`POST`, `OPTIONS`, …) and Next.js segment options. */
export type RouteModule = Record<string, unknown>;

/** A route served directly: the route file's path pattern (parameters as capture groups) and module. */
export interface DirectRoute {
  pattern: RegExp;
  params: readonly string[];
  module: RouteModule;
}

/**
 * Answers a request directly when it is for one of the routes, else returns false (Next.js answers).
 * scripts/server.mjs calls it through globalThis, after its own port and client-IP handling.
 */
export type DirectDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

/** A tenant id in a direct route's path pattern (a capture group). */
export const DIRECT_TENANT = "([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})";

const KEY = Symbol.for("sesame.directRoutes");
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The hot Passkey API ceremony routes, served by their own route handlers (the same contracts, wrapper,
 * presenters and domain calls) straight from the node:http request, without Next.js's per-request
 * routing and web-stream plumbing, which cost more than the handler itself (docs/performance.md). Only
 * plain requests are taken: an exact path, a method the route exports and a body with a
 * Content-Length within the body limit; anything else (a disguised path, a chunked or oversized
 * body) goes to Next.js as before, which answers it as it always did.
 */
export function installDirectRoutes(routes: readonly DirectRoute[]): void {
  const dispatch: DirectDispatch = (req, res) => {
    const method = req.method ?? "GET";
    if (!METHODS.has(method)) return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const handler = route.module[method];
      if (typeof handler !== "function") return false;
      const length = req.headers["content-length"];
      const hasBody = length !== undefined && length !== "0";
      if (req.headers["transfer-encoding"] !== undefined) return false;
      if (hasBody && !(Number(length) > 0 && Number(length) <= MAX_BODY_BYTES)) return false;
      const params: Record<string, string> = {};
      try {
        route.params.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1] ?? "")));
      } catch {
        return false;
      }
      void answer(req, res, handler as RouteHandler, params, hasBody);
      return true;
    }
    return false;
  };
  (globalThis as { [KEY]?: DirectDispatch })[KEY] = dispatch;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  handler: RouteHandler,
  params: Record<string, string>,
  hasBody: boolean,
): Promise<void> {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const entry of value) headers.append(name, entry);
      else if (value !== undefined) headers.set(name, value);
    }
    const body = hasBody ? await readBody(req) : undefined;
    // A fixed origin, as Next.js uses (its own host and port): the route reads only the path and query,
    // and a client's Host header (which `new Request` may refuse) has no say.
    const request = new Request(new URL(req.url ?? "/", "http://localhost"), {
      method: req.method,
      headers,
      ...(body ? { body: new Uint8Array(body) } : {}),
    });
    const response = await handler(request, { params: Promise.resolve(params) });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out["set-cookie"] = cookies;
    const payload = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    if (response.status !== 204 && response.status !== 304)
      out["content-length"] = String(payload?.length ?? 0);
    res.writeHead(response.status, out);
    res.end(payload);
  } catch (error) {
    // A client that went away mid-request: nothing to answer, nothing wrong here.
    if (req.destroyed || res.destroyed) {
      res.destroy();
      return;
    }
    // route() answers every error of the handler itself; this is the plumbing around it failing.
    getLogger().error({ err: error, url: req.url }, "direct route failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end();
  }
}
