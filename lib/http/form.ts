import { AppError } from "@/lib/errors";

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

/**
 * Reads an `application/x-www-form-urlencoded` body (a browser's form POST, such as a SAML response)
 * of at most `maxBytes` (413), else 415 for another content type.
 */
export async function readFormBody(req: Request, maxBytes: number): Promise<URLSearchParams> {
  const type = req.headers.get("content-type");
  if (!type || !FORM_TYPE.test(type)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/x-www-form-urlencoded");
  }
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

const tooLarge = (maxBytes: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);

/** A redirect no cache keeps (each carries a single-use request or token). */
export function redirect(location: string, status: 302 | 303 = 302): Response {
  return new Response(null, { status, headers: { location, "cache-control": "no-store" } });
}
