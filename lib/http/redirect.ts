import { getConfig } from "@/lib/config";

export interface RedirectCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
  path: string;
  sameSite?: "lax" | "none";
}

/** A Set-Cookie value: HttpOnly always, Secure on an https deployment and always with SameSite=None. */
export function cookieHeader(cookie: RedirectCookie): string {
  const sameSite = cookie.sameSite ?? "lax";
  const parts = [
    `${cookie.name}=${cookie.value}`,
    `Path=${cookie.path}`,
    `Max-Age=${cookie.maxAgeSeconds}`,
    "HttpOnly",
  ];
  if (sameSite === "none" || getConfig().baseUrl.startsWith("https:")) parts.push("Secure");
  parts.push(sameSite === "none" ? "SameSite=None" : "SameSite=Lax");
  return parts.join("; ");
}

/**
 * A browser redirect (302) that no cache keeps and that leaks no referrer (the URL may carry a one-time
 * token or an OAuth code), with the given cookies.
 */
export function redirect(location: string, cookies: RedirectCookie[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of cookies) headers.append("set-cookie", cookieHeader(cookie));
  return new Response(null, { status: 302, headers });
}

/** A cookie's value from the request's Cookie header. */
export function requestCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
