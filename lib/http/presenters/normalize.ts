import { isDatabaseAway } from "@/lib/db";
import { AppError, DatabaseUnavailable } from "@/lib/errors";

/**
 * Anything thrown becomes an AppError: the database away (a driver's connection error, or a
 * DATABASE_UNAVAILABLE made by another bundle's copy of lib/errors: the statements' guard is installed
 * by whichever bundle opened the database) becomes DATABASE_UNAVAILABLE; any other unknown error a
 * generic INTERNAL one (cause kept for the log).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseAway(error)) return new DatabaseUnavailable(error);
  return new AppError("INTERNAL", undefined, { cause: error });
}

/** The message plus the details, for shapes that only have one text field. */
export function messageWithDetails(error: AppError): string {
  return error.details.length > 0 ? `${error.message}: ${error.details.join("; ")}` : error.message;
}

/** `Retry-After` (whole seconds, at least 1) when the error says when to try again. */
export function retryAfterHeader(error: AppError): Record<string, string> {
  return error.retryAfterSeconds !== undefined
    ? { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) }
    : {};
}
