import { NextResponse, type NextRequest } from "next/server";
import { CONSOLE_PATH_HEADER } from "@/lib/console/return-path";
import { hostedCsp, newNonce } from "@/lib/hosted/csp";

/**
 * The hosted pages' nonce-based Content-Security-Policy (docs/hosted-pages.md): a fresh nonce per request,
 * on the request's CSP header (Next.js reads the nonce there and puts it on its own scripts) and on the
 * response. The pages render dynamically, so every response gets its own nonce.
 */
export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/console")) return consolePath(request);
  const policy = hostedCsp(newNonce(), { development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

/**
 * Console pages learn their own path from `x-sesame-console-path` (set here, whatever the client sent):
 * a page that finds the session ended sends the operator to sign in and then back to it.
 */
function consolePath(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(CONSOLE_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/t/:tenantId/hosted/:path*", "/console/:path*"],
};
