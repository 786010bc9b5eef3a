import type { AppError } from "@/lib/errors";
import { messageWithDetails } from "./normalize";
import { json } from "../responses";

/** Platform (public, admin, flow, health) errors: `{code, message}` with `code` the HTTP status. */
export function presentPlatformError(error: AppError): Response {
  const headers: Record<string, string> =
    error.retryAfterSeconds !== undefined
      ? { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) }
      : {};
  return json({ code: error.status, message: messageWithDetails(error) }, error.status, headers);
}
