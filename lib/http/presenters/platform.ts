import type { AppError } from "@/lib/errors";
import { messageWithDetails, retryAfterHeader } from "./normalize";
import { PLATFORM_STATUS } from "./platform-status";
import { json } from "../responses";

/** Platform (public, admin, health) errors: `{code, message}` with `code` the HTTP status. */
export function presentPlatformError(error: AppError): Response {
  const status = PLATFORM_STATUS[error.code];
  return json({ code: status, message: messageWithDetails(error) }, status, retryAfterHeader(error));
}
