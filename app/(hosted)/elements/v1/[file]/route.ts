import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

export const dynamic = "force-dynamic";

/** The files `npm run build` puts in dist/elements (scripts/lib/elements.ts), by served name. */
const FILES: Record<string, string> = {
  "sesame-elements.js": "text/javascript; charset=utf-8",
  "sesame-elements.d.ts": "application/typescript; charset=utf-8",
};

// GET /elements/v1/sesame-elements.js (and .d.ts): Sesame's web components, one ES module
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = FILES[file];
  const location = path.join(process.cwd(), "dist", "elements", file);
  const found = type ? await stat(location).catch(() => undefined) : undefined;
  if (!type || !found?.isFile()) {
    const message = type ? `${file} is not built yet (npm run build).\n` : "Not found\n";
    return new Response(message, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  return new Response(Readable.toWeb(createReadStream(location)) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": type,
      "content-length": String(found.size),
      // A stable URL (v1) whose content changes with Sesame's version: revalidate, but allow CORS use.
      "cache-control": "no-cache",
      "access-control-allow-origin": "*",
    },
  });
}
