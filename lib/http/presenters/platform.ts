import type { AppError } from "@/lib/errors";
import { jsonError, messageWithDetails } from "./normalize";

/** Platform (public, admin, flow, health) errors: `{code, message}` with `code` the HTTP status. */
export function presentPlatformError(error: AppError): Response {
  return jsonError({ code: error.status, message: messageWithDetails(error) }, error.status);
}
