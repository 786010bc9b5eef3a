/**
 * Every stable error code Sesame may throw, and the one place its HTTP status is decided.
 * Domain code throws codes; presenters in lib/http/presenters turn them into each surface's wire shape.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A one-factor login (deprecated public API) of a user who set up a second factor the tenant enforces. */
  SECOND_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  /** A passcode past its lifetime (Hanko answers 408 "passcode request timed out"). */
  PASSCODE_EXPIRED: 408,
  CONFLICT: 409,
  /** Gone for good, e.g. a passcode after too many wrong attempts (Hanko's 410, which its SDK reads). */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Well-formed but no longer acceptable, e.g. an expired one-time token (Hanko's 422 "token has expired"). */
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  // The spec answers database trouble on the status page with 500, so we use 500 everywhere for it.
  DATABASE_UNAVAILABLE: 500,
  INTERNAL: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The spec's texts for each status (spec "Errors" table), used when an error carries no own message. */
export const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
