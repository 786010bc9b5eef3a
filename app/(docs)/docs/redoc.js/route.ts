import { readFile } from "node:fs/promises";
import path from "node:path";

// The Redoc standalone bundle, served from our own origin (no CDN).
const BUNDLE = path.join(process.cwd(), "node_modules", "redoc", "bundles", "redoc.standalone.js");

/**
 * Redoc's sidebar always shows a logo fetched from its CDN, which the page's CSP (`img-src 'self' data:
 * blob:`) blocks, leaving an error in the browser console: the bundle is served with an empty inline
 * image in its place.
 */
const CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

// GET /docs/redoc.js: the API docs viewer
export async function GET(): Promise<Response> {
  // Read per request, not kept (1 MB; browsers cache it a day): docs/memory.md.
  const bundle = (await readFile(BUNDLE, "utf8")).replaceAll(CDN_LOGO, EMPTY_IMAGE);
  return new Response(bundle, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
