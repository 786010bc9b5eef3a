type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  params?: Record<string, string>;
}

/** Calls a route handler exactly as Next.js does: a Request plus a params promise. */
export async function call(handler: Handler, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(`http://localhost:3000${path}`, { method: options.method ?? "GET", headers, body });
  return handler(req, { params: Promise.resolve(options.params ?? {}) });
}
