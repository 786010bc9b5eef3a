import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

// Hanko's own web components, exactly as npm ships them (an ES module that bundles the frontend SDK).
const BUNDLE = path.join(
  process.cwd(),
  "node_modules",
  "@teamhanko",
  "hanko-elements",
  "dist",
  "elements.js",
);

export const dynamic = "force-dynamic";

// GET /examples/hanko-elements/elements.js: the unmodified @teamhanko/hanko-elements bundle
export async function GET(): Promise<Response> {
  const file = await stat(BUNDLE).catch(() => undefined);
  if (!file?.isFile()) {
    return new Response("@teamhanko/hanko-elements is not installed (npm install).\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  const body = Readable.toWeb(createReadStream(BUNDLE)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "content-length": String(file.size),
      "cache-control": "no-cache",
    },
  });
}
