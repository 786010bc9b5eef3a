import type { AppError } from "@/lib/errors";
import { messageWithDetails } from "./normalize";
import { json } from "../responses";

/** Platform (public, admin, flow, health) errors: `{code, message}` with `code` the HTTP status. */
export function presentPlatformError(error: AppError): Response {
  return json({ code: error.status, message: messageWithDetails(error) }, error.status);
}
