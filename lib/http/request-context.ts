import { randomUUID } from "node:crypto";

export interface RequestContext {
  requestId: string;
  ip: string | null;
  userAgent: string | null;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request id (a caller's `X-Request-Id` when it is safe to echo, else a new UUID), client IP and
 * user agent, as audit records and logs want them.
 */
export function requestContext(req: Request): RequestContext {
  const incoming = req.headers.get("x-request-id");
  // `next start` appends the socket address as the last X-Forwarded-For entry; earlier entries come
  // from the client or proxies and are not trusted here.
  const forwarded = req.headers.get("x-forwarded-for");
  const ip = forwarded?.split(",").at(-1)?.trim() || null;
  return {
    requestId: incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID(),
    ip,
    userAgent: req.headers.get("user-agent"),
  };
}
