import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";

/**
 * A file from disk as a streamed response (the elements bundle, Hanko's bundle for its demo), or a
 * plain-text 404 with `missing` when it is not there. Revalidated on every use: the URL is stable while
 * its content changes with Sesame's version.
 */
export async function serveFile(
  location: string,
  contentType: string,
  missing: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const file = await stat(location).catch(() => undefined);
  if (!file?.isFile()) {
    return new Response(missing, {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  return new Response(Readable.toWeb(createReadStream(location)) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": contentType,
      "content-length": String(file.size),
      "cache-control": "no-cache",
      ...headers,
    },
  });
}
