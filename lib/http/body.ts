import { AppError } from "@/lib/errors";

/** Largest request body any endpoint accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;.*)?$/i;

/**
 * Reads a JSON body, refusing more than MAX_BODY_BYTES (413), a non-JSON content type (415) and
 * malformed JSON (400). An empty body gives `undefined`.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimited(req);
  if (text.trim() === "") return undefined;
  const type = req.headers.get("content-type");
  if (!type || !JSON_TYPE.test(type)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("MALFORMED_JSON", "Request body is not valid JSON");
  }
}

function tooLarge(maxBytes = MAX_BODY_BYTES): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);
}

async function readLimited(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
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
  return Buffer.concat(chunks).toString("utf8");
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

/**
 * Reads an HTML form body (a provider's `form_post` answer, a SAML response), with the JSON reader's size
 * limit unless the caller allows more (SAML responses with many group attributes outgrow it).
 */
export async function readFormBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<URLSearchParams> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const type = req.headers.get("content-type");
  if (!type || !FORM_TYPE.test(type)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/x-www-form-urlencoded");
  }
  return new URLSearchParams(await readLimited(req, maxBytes));
}
