import type { AppError } from "@/lib/errors";
import { jsonError, messageWithDetails } from "./normalize";

/**
 * Authenticator request API errors: `{code, message}`, except that its 404 body spells the field
 * `messsage` (three s). That is the spec's wire format (Errors table), so clients may depend on it.
 */
export function presentAuthenticatorError(error: AppError): Response {
  const field = error.status === 404 ? "messsage" : "message";
  const headers: HeadersInit =
    error.status === 401 ? { "www-authenticate": 'Bearer realm="sesame", Secret realm="sesame"' } : {};
  return jsonError({ code: error.status, [field]: messageWithDetails(error) }, error.status, headers);
}
