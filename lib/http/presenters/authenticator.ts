import type { AppError } from "@/lib/errors";
import { messageWithDetails } from "./normalize";
import { json } from "../responses";

/**
 * Authenticator request API errors: `{code, message}`, except that its 404 body spells the field
 * `messsage` (three s). That is the spec's wire format (Errors table), so clients may depend on it.
 */
export function presentAuthenticatorError(error: AppError): Response {
  const field = error.status === 404 ? "messsage" : "message";
  const headers: Record<string, string> =
    error.status === 401 ? { "www-authenticate": 'Bearer realm="sesame", Secret realm="sesame"' } : {};
  return json({ code: error.status, [field]: messageWithDetails(error) }, error.status, headers);
}
