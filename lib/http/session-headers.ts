import type { Tenant } from "@/lib/tenants";

/** The cookie's path: the tenant's API, unless a domain is set to share the cookie with the tenant's site. */
function cookiePath(tenant: Tenant): string {
  return tenant.platform.session.cookie.domain ? "/" : `/t/${tenant.id}`;
}

function cookieAttributes(tenant: Tenant, maxAge: number | undefined): string {
  const cookie = tenant.platform.session.cookie;
  const parts = [`Path=${cookiePath(tenant)}`, "HttpOnly"];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`);
  if (cookie.secure || cookie.sameSite === "none") parts.push("Secure");
  parts.push(`SameSite=${cookie.sameSite[0]!.toUpperCase()}${cookie.sameSite.slice(1)}`);
  return parts.join("; ");
}

/**
 * How a new session reaches the client, as Hanko sends it: `X-Session-Lifetime` and
 * `X-Session-Retention` always, then the token as an HttpOnly cookie or, in cross-domain mode, as
 * `X-Auth-Token`.
 */
export function sessionHeaders(tenant: Tenant, token: string): Headers {
  const { session } = tenant.platform;
  const headers = new Headers({
    "x-session-lifetime": String(tenant.sessionLifetimeSeconds),
    "x-session-retention": session.cookie.retention,
  });
  if (session.crossDomain) headers.set("x-auth-token", token);
  else {
    const maxAge = session.cookie.retention === "session" ? undefined : tenant.sessionLifetimeSeconds;
    headers.append("set-cookie", `${session.cookie.name}=${token}; ${cookieAttributes(tenant, maxAge)}`);
  }
  return headers;
}

/** Clears the session cookie (logout), with the attributes it was set with. */
export function clearSessionCookie(tenant: Tenant): Headers {
  const name = tenant.platform.session.cookie.name;
  return new Headers({ "set-cookie": `${name}=; ${cookieAttributes(tenant, 0)}` });
}

/** Appends the headers to the response's own (a second Set-Cookie adds to the first) and returns it. */
function appendHeaders(response: Response, headers: Headers): Response {
  headers.forEach((value, name) => response.headers.append(name, value));
  return response;
}

/** The response with a new session's headers ({@link sessionHeaders}) added. */
export function withSessionHeaders(response: Response, tenant: Tenant, token: string): Response {
  return appendHeaders(response, sessionHeaders(tenant, token));
}

/** The response with the session cookie cleared ({@link clearSessionCookie}). */
export function withClearedSessionCookie(response: Response, tenant: Tenant): Response {
  return appendHeaders(response, clearSessionCookie(tenant));
}
