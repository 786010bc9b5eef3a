import type { AppError, ErrorCode } from "@/lib/errors";
import { json } from "../responses";
import { retryAfterHeader } from "./normalize";

/** The Passkey API's answer to a code: its status, and what to tell a caller whose error has no details. */
export interface PasskeyAnswer {
  status: number;
  hint?: string;
}

/** A 401 of this surface: the caller's API key is what to check first. */
const UNAUTHORIZED_ANSWER: PasskeyAnswer = {
  status: 401,
  hint: "Send a valid API key of this tenant in the apiKey header.",
};

/**
 * The Passkey API's answer to each error code (passkey-server's statuses). Codes of the public API's
 * own domain (passcodes, emails, passwords, usernames) cannot arise here but need a row.
 */
export const PASSKEY_ERRORS: Record<ErrorCode, PasskeyAnswer> = {
  BAD_REQUEST: { status: 400 },
  VALIDATION_FAILED: { status: 400 },
  MALFORMED_JSON: { status: 400, hint: "The request body could not be parsed as JSON." },
  UNAUTHORIZED: UNAUTHORIZED_ANSWER,
  FORBIDDEN: { status: 403 },
  NOT_FOUND: { status: 404 },
  CONFLICT: { status: 409 },
  PAYLOAD_TOO_LARGE: { status: 413, hint: "Send a smaller request body." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, hint: "Send the body as JSON with Content-Type: application/json." },
  RATE_LIMITED: { status: 429 },
  DATABASE_UNAVAILABLE: { status: 503, hint: "Try again later (Retry-After)." },
  INTERNAL: {
    status: 500,
    hint: "Try again later; if the problem persists, contact the operator with the X-Request-Id.",
  },

  // The ceremonies: a refused registration is passkey-server's 400, a refused assertion its 401.
  CLIENT_DATA_INVALID: { status: 400 },
  CHALLENGE_NOT_FOUND: { status: 400 },
  CHALLENGE_EXPIRED: { status: 400 },
  ATTESTATION_INVALID: { status: 400 },
  CEREMONY_VERIFICATION_FAILED: { status: 401 },
  NO_USABLE_CREDENTIAL: { status: 400 },
  TRANSACTION_EXISTS: { status: 409 },
  CREDENTIAL_NOT_FOUND: { status: 404 },
  USER_NOT_FOUND: { status: 404 },
  USER_LOCKED: { status: 403 },
  USER_UNKNOWN: { status: 400 },
  CREDENTIAL_TAKEN: { status: 409 },

  // Not thrown on this surface.
  PASSCODE_INVALID: { status: 401 },
  PASSCODE_USED: { status: 401 },
  PASSCODE_NOT_FOUND: { status: 401 },
  PASSCODE_EXPIRED: { status: 408 },
  PASSCODE_ATTEMPTS_EXCEEDED: { status: 410 },
  EMAIL_TAKEN: { status: 409 },
  EMAIL_LIMIT_REACHED: { status: 409 },
  EMAIL_UNVERIFIED: { status: 409 },
  EMAIL_UNDELETABLE: { status: 409 },
  EMAIL_NOT_FOUND: { status: 404 },
  USERNAME_TAKEN: { status: 409 },
  USERNAME_INVALID: { status: 400 },
  USERNAME_NOT_ENABLED: { status: 403 },
  USERNAME_REQUIRED: { status: 403 },
  SIGN_UP_DISABLED: { status: 403 },
  ACCOUNT_DELETION_DISABLED: { status: 403 },
  PASSWORD_INVALID: { status: 401 },
  PASSWORD_LOCKED: { status: 403 },
  PASSWORD_TOO_SHORT: { status: 400 },
  PASSWORD_TOO_LONG: { status: 400 },
  PASSWORD_NOT_FOUND: { status: 404 },
  PASSWORDS_DISABLED: { status: 404 },
  SESSION_INVALID: { status: 401 },
  TOKEN_NOT_FOUND: { status: 404 },
  TOKEN_EXPIRED: { status: 422 },
  SECOND_FACTOR_REQUIRED: { status: 403 },
  UAF_REQUEST_NOT_FOUND: { status: 404 },
  UAF_REQUEST_NOT_PENDING: { status: 409 },
  DEVICE_NOT_FOUND: { status: 404 },
  NO_REGISTERED_DEVICE: { status: 400 },
  OOB_TOKEN_INVALID: { status: 401 },
  FLOW_REFUSED: { status: 400 },
  METADATA_INVALID: { status: 400 },
  // Third-party sign-in and SAML: not on this surface
  THIRD_PARTY_PROVIDER_NOT_FOUND: { status: 404 },
  THIRD_PARTY_STATE_INVALID: { status: 400 },
  THIRD_PARTY_PROVIDER_ERROR: { status: 400 },
  THIRD_PARTY_ACCESS_DENIED: { status: 403 },
  THIRD_PARTY_EMAIL_MISSING: { status: 400 },
  THIRD_PARTY_EMAIL_UNVERIFIED: { status: 403 },
  THIRD_PARTY_LINKING_DISABLED: { status: 409 },
  REDIRECT_NOT_ALLOWED: { status: 400 },
  IDENTITY_NOT_FOUND: { status: 404 },
  SAML_PROVIDER_NOT_FOUND: { status: 404 },
  SAML_RESPONSE_INVALID: { status: 400 },
  SAML_ASSERTION_REPLAYED: { status: 400 },
  // Named codes of the admin, console and identity paths: answered as NOT_FOUND and CONFLICT are.
  OPERATOR_NOT_FOUND: { status: 404 },
  OPERATOR_PASSKEY_NOT_FOUND: { status: 404 },
  TENANT_NOT_FOUND: { status: 404 },
  WEBHOOK_NOT_FOUND: { status: 404 },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404 },
  IDENTITY_ALREADY_LINKED: { status: 409 },
  IDENTITY_LINKED_ELSEWHERE: { status: 409 },
  OPERATOR_EXISTS: { status: 409 },
  LAST_OWNER: { status: 409 },
  CONSOLE_ALREADY_SET_UP: { status: 409 },
  LAST_OPERATOR_PASSKEY: { status: 409 },
  WEBHOOK_LIMIT_REACHED: { status: 409 },
  // Named codes that replaced generic ones: answered exactly as the generic code was.
  PASSCODE_EMAIL_UNAVAILABLE: { status: 400 },
  PASSCODE_EMAIL_MISSING: { status: 400 },
  NEW_USER_INVALID: { status: 400 },
  USER_EXISTS: { status: 409 },
  PASSWORD_EXISTS: { status: 409 },
  SESSION_NOT_FOUND: { status: 404 },
  NOT_SESSION_USER: { status: 403 },
  SESSION_REQUIRED: { status: 403 },
  OTP_SECRET_NOT_FOUND: { status: 404 },
  TRANSACTION_NOT_FOUND: UNAUTHORIZED_ANSWER,
  SAML_DOMAIN_TAKEN: { status: 409 },
  THIRD_PARTY_PROVIDER_EXISTS: { status: 409 },
  OPERATOR_PASSKEY_UNKNOWN: { status: 401 },
  RECENT_SIGN_IN_REQUIRED: { status: 403 },
  CONSOLE_SESSION_ENDED: { status: 401 },
  CONSOLE_ROLE_INSUFFICIENT: { status: 403 },
  API_KEY_INVALID: UNAUTHORIZED_ANSWER,
  API_KEY_NOT_FOUND: { status: 404 },
  METRICS_TOKEN_INVALID: { status: 401 },
  AUDIT_CURSOR_INVALID: { status: 400 },
  OAUTH_CLIENT_NOT_FOUND: { status: 404 },
  OAUTH_CONSENT_NOT_FOUND: { status: 404 },
  EXAMPLES_DISABLED: { status: 404 },
  OPENAPI_DOCUMENT_NOT_FOUND: { status: 404 },
};

/**
 * Passkey API errors: `{title: string[], details: string[], status}`. The reference server sends
 * strings; the spec says arrays, and the spec wins.
 */
export function presentPasskeyError(error: AppError): Response {
  const { status, hint } = PASSKEY_ERRORS[error.code];
  const details = error.details.length > 0 ? error.details : hint ? [hint] : [];
  return json({ title: [error.message], details, status }, status, retryAfterHeader(error));
}
