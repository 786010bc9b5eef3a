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
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
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
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
