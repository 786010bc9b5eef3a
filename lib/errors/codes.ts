/**
 * Every stable error code Sesame throws: what went wrong, never how a surface answers it. Each code maps
 * to the message an error of it carries when it is thrown without one of its own (the spec's "Errors"
 * text of the status the platform surfaces answer it with: messages reach the wire, so they are pinned).
 * Presenters decide the wire: `lib/http/presenters` (platform and Passkey API tables) and
 * `lib/flows/errors.ts` (the flow API's table of Hanko flow codes).
 */
export const ERROR_CODES = {
  // Transport and access: generic codes for the request itself, thrown by lib/http alone (the domain
  // throws named codes: lib/errors/generic-codes.test.ts keeps it so).
  /** The request is wrong in a way no more specific code names. */
  BAD_REQUEST: "Bad Request",
  /** Params, query or body do not match the contract (details: one line per invalid field). */
  VALIDATION_FAILED: "Bad Request",
  /** The body is not valid JSON. */
  MALFORMED_JSON: "Bad Request",
  /** No valid credentials (API key, out-of-band token) for this request. */
  UNAUTHORIZED: "Unauthorized",
  /** Authenticated, but this caller or tenant may not do this. */
  FORBIDDEN: "Forbidden",
  /** Nothing answers here: an unknown tenant in the path, a route of another API version, a document. */
  NOT_FOUND: "Not Found",
  /** The request conflicts with the current state of a resource. */
  CONFLICT: "Conflict",
  /** The body exceeds the size limit. */
  PAYLOAD_TOO_LARGE: "Payload Too Large",
  /** The body is not sent as JSON. */
  UNSUPPORTED_MEDIA_TYPE: "Unsupported Media Type",
  /** A rate limit refused the request (retryAfterSeconds says when to try again). */
  RATE_LIMITED: "Too Many Requests",
  /** The database did not answer (in time), or is away: 503 with Retry-After (docs/operations.md). */
  DATABASE_UNAVAILABLE: "Service Unavailable",
  /** A bug or an unexpected failure; the cause is logged, never shown. */
  INTERNAL: "Internal Server Error",

  // Passcodes (lib/passcodes)
  /** The passcode does not match; the details say how many attempts are left. */
  PASSCODE_INVALID: "Unauthorized",
  /** The passcode was already used. */
  PASSCODE_USED: "Unauthorized",
  /** No passcode with this id for this tenant. */
  PASSCODE_NOT_FOUND: "Unauthorized",
  /** The passcode is past its lifetime or replaced by a newer one (Hanko's 408). */
  PASSCODE_EXPIRED: "Request Timeout",
  /** The passcode's wrong attempts are used up (Hanko's 410, which its SDK reads). */
  PASSCODE_ATTEMPTS_EXCEEDED: "Gone",
  /** A passcode's `email_id` names no address of the user. */
  PASSCODE_EMAIL_UNAVAILABLE: "Bad Request",
  /** The user has no primary address and the passcode request names none. */
  PASSCODE_EMAIL_MISSING: "Bad Request",

  // Emails (lib/emails)
  /** The address belongs to another account, or is already one of the user's. */
  EMAIL_TAKEN: "Conflict",
  /** The user has as many addresses as the tenant allows. */
  EMAIL_LIMIT_REACHED: "Conflict",
  /** The address must be verified first (the tenant requires verification for this). */
  EMAIL_UNVERIFIED: "Conflict",
  /** The primary (and so also the last) address cannot be deleted. */
  EMAIL_UNDELETABLE: "Conflict",
  /** The user has no address with this id. */
  EMAIL_NOT_FOUND: "Not Found",

  // Users, usernames and accounts (lib/users, lib/accounts)
  /** The user addressed by the request (path, session or key) does not exist. */
  USER_NOT_FOUND: "Not Found",
  /** The user named in the request body does not exist (a body field, so 400 where answered). */
  USER_UNKNOWN: "Bad Request",
  /** Another user of the tenant has this username. */
  USERNAME_TAKEN: "Conflict",
  /** The username breaks the tenant's length or character rules. */
  USERNAME_INVALID: "Bad Request",
  /** Usernames are off for this tenant, or the user is not a platform user. */
  USERNAME_NOT_ENABLED: "Forbidden",
  /** The tenant requires a username, so it cannot be removed. */
  USERNAME_REQUIRED: "Forbidden",
  /** An operator locked the user: no sign-in on any surface until unlocked. */
  USER_LOCKED: "Forbidden",
  /** The tenant does not allow sign-up. */
  SIGN_UP_DISABLED: "Forbidden",
  /** The tenant does not allow users to delete their account. */
  ACCOUNT_DELETION_DISABLED: "Forbidden",
  /** A new user's emails and username do not fit together (neither, no or several primaries, a repeat). */
  NEW_USER_INVALID: "Bad Request",
  /** A user with this id exists (an admin's create with an id). */
  USER_EXISTS: "Conflict",
  /** A sign-up lost to an existing user with the same credential id. */
  CREDENTIAL_TAKEN: "Conflict",

  // Passwords (lib/passwords, lib/accounts)
  /** Wrong password, or a user without one (the audit log keeps which). */
  PASSWORD_INVALID: "Unauthorized",
  /** Password login is locked for a while after too many failures in a row. */
  PASSWORD_LOCKED: "Forbidden",
  /** A new password is shorter than the tenant's minimum. */
  PASSWORD_TOO_SHORT: "Bad Request",
  /** A password is longer than any password may be. */
  PASSWORD_TOO_LONG: "Bad Request",
  /** The user has no password to change or delete. */
  PASSWORD_NOT_FOUND: "Not Found",
  /** Passwords are off for this tenant (the routes do not exist then, as in Hanko). */
  PASSWORDS_DISABLED: "Not Found",
  /** The user already has a password (the admin API's create). */
  PASSWORD_EXISTS: "Conflict",

  // Sessions, tokens and second factors (lib/sessions, lib/one-time-tokens, lib/mfa)
  /** No session, or an invalid, expired or revoked one. */
  SESSION_INVALID: "Unauthorized",
  /** A one-time token that does not exist or was used. */
  TOKEN_NOT_FOUND: "Not Found",
  /** A one-time token past its lifetime (Hanko's 422 "token has expired"). */
  TOKEN_EXPIRED: "Unprocessable Entity",
  /** A one-factor login of a user whose second factor the tenant enforces (deprecated public API). */
  SECOND_FACTOR_REQUIRED: "Forbidden",
  /** The user has no session with this id (the admin API's revoke). */
  SESSION_NOT_FOUND: "Not Found",
  /** The request names or reads a user other than the session's. */
  NOT_SESSION_USER: "Forbidden",
  /** Verifying an additional address needs a session of its user (403, not SESSION_INVALID's 401). */
  SESSION_REQUIRED: "Forbidden",
  /** The user has no authenticator app (TOTP secret). */
  OTP_SECRET_NOT_FOUND: "Not Found",

  // WebAuthn ceremonies and credentials (lib/ceremonies/webauthn, lib/credentials)
  /** The response's clientDataJSON is not base64url JSON with a challenge. */
  CLIENT_DATA_INVALID: "Bad Request",
  /** A registration response names no stored challenge of this ceremony (or another user's). */
  CHALLENGE_NOT_FOUND: "Bad Request",
  /** A registration response answers a challenge past its lifetime. */
  CHALLENGE_EXPIRED: "Bad Request",
  /** A registration response (attestation) does not verify. */
  ATTESTATION_INVALID: "Bad Request",
  /** An assertion is not accepted: unknown or expired challenge, unusable credential, failed check. */
  CEREMONY_VERIFICATION_FAILED: "Unauthorized",
  /** The user has no credential usable for the requested ceremony. */
  NO_USABLE_CREDENTIAL: "Bad Request",
  /** The transaction id was already used for this user. */
  TRANSACTION_EXISTS: "Conflict",
  /** A transaction assertion whose transaction is unknown or completed (passkey-server's 401). */
  TRANSACTION_NOT_FOUND: "Unauthorized",
  /** No credential with this id (of this user). */
  CREDENTIAL_NOT_FOUND: "Not Found",

  // Authenticator API (lib/uaf-requests on lib/ceremonies/uaf)
  /** No UAF request with this id for this tenant. */
  UAF_REQUEST_NOT_FOUND: "Not Found",
  /** The UAF request is no longer pending. */
  UAF_REQUEST_NOT_PENDING: "Conflict",
  /** No registered authenticator ("device") with this id. */
  DEVICE_NOT_FOUND: "Not Found",
  /** The user has no registered authenticator to authenticate with. */
  NO_REGISTERED_DEVICE: "Bad Request",
  /** The out-of-band token is wrong, expired or already used. */
  OOB_TOKEN_INVALID: "Unauthorized",

  // Flows (lib/flows)
  /**
   * A flow step refused with one of Hanko's flow codes (FlowError): the flow API answers that code
   * and its status; no other surface sees it.
   */
  FLOW_REFUSED: "Bad Request",

  // User metadata (lib/metadata)
  /** Metadata that is not a JSON object (or null), or longer than 3000 characters serialised. */
  METADATA_INVALID: "Bad Request",

  // Third-party sign-in and SAML (lib/thirdparty, lib/saml, lib/identities)
  /** No enabled third-party provider with this name for the tenant. */
  THIRD_PARTY_PROVIDER_NOT_FOUND: "Not Found",
  /** The `state` is unknown, used, expired, or not this browser's (missing or other cookie). */
  THIRD_PARTY_STATE_INVALID: "Bad Request",
  /** The provider answered an error, or its answer failed a check (ID token, nonce, audience, user info). */
  THIRD_PARTY_PROVIDER_ERROR: "Bad Request",
  /** The user declined at the provider (`error=access_denied`). */
  THIRD_PARTY_ACCESS_DENIED: "Forbidden",
  /** The provider gave no email address for the account. */
  THIRD_PARTY_EMAIL_MISSING: "Bad Request",
  /** The provider's email is unverified and belongs to an existing user: never linked. */
  THIRD_PARTY_EMAIL_UNVERIFIED: "Forbidden",
  /** A user with the provider's email exists and the provider's settings do not allow linking. */
  THIRD_PARTY_LINKING_DISABLED: "Conflict",
  /** `redirect_to` is not one of the tenant's (or the provider's) allowed origins. */
  REDIRECT_NOT_ALLOWED: "Bad Request",
  /** The user has no identity with this id. */
  IDENTITY_NOT_FOUND: "Not Found",
  /** No enabled SAML identity provider for this id or email domain. */
  SAML_PROVIDER_NOT_FOUND: "Not Found",
  /** The SAML response failed a check (signature, audience, recipient, destination, time, InResponseTo). */
  SAML_RESPONSE_INVALID: "Bad Request",
  /** The assertion id was already consumed. */
  SAML_ASSERTION_REPLAYED: "Bad Request",
  /** Another SAML identity provider of the tenant serves this email domain. */
  SAML_DOMAIN_TAKEN: "Conflict",
  /** The tenant has a third-party provider with this name. */
  THIRD_PARTY_PROVIDER_EXISTS: "Conflict",
  /** The provider account was linked (to whichever user) by a concurrent request between look-up and insert. */
  IDENTITY_ALREADY_LINKED: "Conflict",
  /** The provider account is linked to another user of the tenant. */
  IDENTITY_LINKED_ELSEWHERE: "Conflict",

  // Console operators (lib/operators)
  /** No operator with this id or email. */
  OPERATOR_NOT_FOUND: "Not Found",
  /** An operator with this email exists. */
  OPERATOR_EXISTS: "Conflict",
  /** The change would leave the console without an owner. */
  LAST_OWNER: "Conflict",
  /** The setup link was used: the console has operators already. */
  CONSOLE_ALREADY_SET_UP: "Conflict",
  /** The operator has no passkey with this id. */
  OPERATOR_PASSKEY_NOT_FOUND: "Not Found",
  /** The operator's last passkey (the only way in) cannot be removed. */
  LAST_OPERATOR_PASSKEY: "Conflict",
  /** A tenant named in the request (a grant, a path) does not exist. */
  TENANT_NOT_FOUND: "Not Found",
  /** A console sign-in with a passkey of no operator. */
  OPERATOR_PASSKEY_UNKNOWN: "Unauthorized",
  /** Adding a passkey needs a sign-in of the last minutes (ADD_PASSKEY_WITHIN_MINUTES). */
  RECENT_SIGN_IN_REQUIRED: "Forbidden",
  /** A console action without a console session (signed out, expired or ended): sign in again. */
  CONSOLE_SESSION_ENDED: "Unauthorized",
  /** The operator's role does not allow this console action (a viewer's write, an admin's owner task). */
  CONSOLE_ROLE_INSUFFICIENT: "Forbidden",

  // Webhooks (lib/webhooks)
  /** The tenant has no webhook endpoint with this id. */
  WEBHOOK_NOT_FOUND: "Not Found",
  /** The tenant has as many webhook endpoints as allowed. */
  WEBHOOK_LIMIT_REACHED: "Conflict",
  /** The tenant's webhook has no delivery with this id. */
  WEBHOOK_DELIVERY_NOT_FOUND: "Not Found",
  // API keys, metrics and the audit log (lib/api-keys, lib/metrics, lib/audit)
  /** No valid API key: missing, malformed, unknown, revoked, without the scope, or another tenant's. */
  API_KEY_INVALID: "Unauthorized",
  /** The tenant has no API key with this id. */
  API_KEY_NOT_FOUND: "Not Found",
  /** A `/metrics` scrape without the bearer token `SESAME_METRICS_TOKEN` (or with no way in: scrapeAccess). */
  METRICS_TOKEN_INVALID: "Unauthorized",
  /** An audit log page's `cursor` is not one the list gave out. */
  AUDIT_CURSOR_INVALID: "Bad Request",

  // OpenID Provider (lib/openid)
  /** The tenant has no OAuth client with this id. */
  OAUTH_CLIENT_NOT_FOUND: "Not Found",
  /** The user has given no consent (connected app) to this client. */
  OAUTH_CONSENT_NOT_FOUND: "Not Found",

  // API documents (app/(docs))
  /** No OpenAPI document of this name (`/openapi/{surface}.json`). */
  OPENAPI_DOCUMENT_NOT_FOUND: "Not Found",

  // Example pages (lib/examples)
  /** The example pages are off (SESAME_EXAMPLES). */
  EXAMPLES_DISABLED: "Not Found",
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Every code, for tables and tests. */
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

/** Faults of Sesame or its database rather than refusals of the request: logged, answered as 500. */
export function isFault(code: ErrorCode): boolean {
  return code === "INTERNAL" || code === "DATABASE_UNAVAILABLE";
}
