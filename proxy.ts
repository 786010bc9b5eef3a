import { NextResponse, type NextRequest } from "next/server";
import { hostedCsp, newNonce } from "@/lib/hosted/csp";

/**
 * The hosted pages' nonce-based Content-Security-Policy (docs/hosted-pages.md): a fresh nonce per request,
 * on the request's CSP header (Next.js reads the nonce there and puts it on its own scripts) and on the
 * response. The pages render dynamically, so every response gets its own nonce.
 */
export function proxy(request: NextRequest) {
  const policy = hostedCsp(newNonce(), { development: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  matcher: "/t/:tenantId/hosted/:path*",
};
