import type { AppError, ErrorCode } from "@/lib/errors";
import { json } from "../responses";

/** What to tell a Passkey API caller when the error has no details of its own. */
const HINTS: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: "Send a valid API key of this tenant in the apiKey header.",
  UNSUPPORTED_MEDIA_TYPE: "Send the body as JSON with Content-Type: application/json.",
  MALFORMED_JSON: "The request body could not be parsed as JSON.",
  PAYLOAD_TOO_LARGE: "Send a smaller request body.",
  INTERNAL: "Try again later; if the problem persists, contact the operator with the X-Request-Id.",
  DATABASE_UNAVAILABLE: "Try again later.",
};

/**
 * Passkey API errors: `{title: string[], details: string[], status}`. The reference server sends
 * strings; the spec says arrays, and the spec wins.
 */
export function presentPasskeyError(error: AppError): Response {
  const hint = HINTS[error.code];
  const details = error.details.length > 0 ? error.details : hint ? [hint] : [];
  return json({ title: [error.message], details, status: error.status }, error.status);
}
