import { ERROR_CODES, type ErrorCode } from "./codes";

export interface AppErrorOptions {
  cause?: unknown;
  /** Safe, client-facing hints for fixing the request (for example one line per invalid field). */
  details?: string[];
  /** For 429 and 503 answers: when the caller may try again (the `Retry-After` header, seconds). */
  retryAfterSeconds?: number;
}

/**
 * The base of every expected failure. `code` is stable and machine-readable and names what went wrong;
 * `message` is safe to show to the caller. How a surface answers a code (status, body) is its
 * presenter's table, never the error's. Anything that is not an AppError is treated as a bug and
 * answered with a generic 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: string[];
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message?: string, options: AppErrorOptions = {}) {
    super(message ?? ERROR_CODES[code], { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class BadRequest extends AppError {
  constructor(message?: string, options?: AppErrorOptions) {
    super("BAD_REQUEST", message, options);
  }
}

export class ValidationFailed extends AppError {
  constructor(details: string[], message = "Bad Request") {
    super("VALIDATION_FAILED", message, { details });
  }
}

export class Unauthorized extends AppError {
  constructor(options?: AppErrorOptions) {
    super("UNAUTHORIZED", undefined, options);
  }
}

export class NotFound extends AppError {
  constructor(message?: string, options?: AppErrorOptions) {
    super("NOT_FOUND", message, options);
  }
}

/** What a 503 for database trouble tells the caller to wait (the Retry-After header, seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The database did not answer (in time); answered 503 with Retry-After (the status page: 500). */
export class DatabaseUnavailable extends AppError {
  constructor(cause?: unknown, retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS) {
    super("DATABASE_UNAVAILABLE", undefined, { cause, retryAfterSeconds });
  }
}
