import { pageHeaders } from "@/lib/contracts/admin/pagination";

/** A JSON response that no cache keeps (ceremony options, tokens and errors are single-use). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}

/**
 * A page of an admin list: the items (on the wire), `X-Total-Count` and Hanko's `Link` to the other
 * pages of the same request.
 */
export function pageJson(
  url: string,
  items: unknown[],
  listing: { total: number; page: number; perPage: number },
): Response {
  return json(items, 200, pageHeaders(url, listing));
}
