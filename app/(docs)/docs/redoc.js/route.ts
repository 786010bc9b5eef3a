import { readFile } from "node:fs/promises";
import path from "node:path";

// The Redoc standalone bundle, served from our own origin (no CDN).
const BUNDLE = path.join(process.cwd(), "node_modules", "redoc", "bundles", "redoc.standalone.js");

// GET /docs/redoc.js: the API docs viewer
export async function GET(): Promise<Response> {
  return new Response(await readFile(BUNDLE), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
