import type { AppError } from "@/lib/errors";
import { messageWithDetails, retryAfterHeader } from "./normalize";
import { PLATFORM_STATUS } from "./platform-status";
import { json } from "../responses";

/**
 * Authenticator request API errors: `{code, message}` with the platform statuses, except that its 404
 * body spells the field `messsage` (three s). That is the spec's wire format (Errors table), so
 * clients may depend on it.
 */
export function presentAuthenticatorError(error: AppError): Response {
  const status = PLATFORM_STATUS[error.code];
  const field = status === 404 ? "messsage" : "message";
  const headers: Record<string, string> =
    status === 401
      ? { "www-authenticate": 'Bearer realm="sesame", Secret realm="sesame"' }
      : retryAfterHeader(error);
  return json({ code: status, [field]: messageWithDetails(error) }, status, headers);
}
