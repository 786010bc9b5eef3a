import { AppError, type ErrorCode } from "@/lib/errors";

/**
 * Hanko's flow error codes (backend/flowpilot/errors.go, flow_api/flow/shared/errors.go) and the status
 * each answers with: the elements translate `error.code`, so these spellings are the wire format.
 */
export const FLOW_ERROR_STATUS = {
  technical_error: 500,
  flow_expired_error: 410,
  flow_discontinuity_error: 500,
  operation_not_permitted_error: 403,
  form_data_invalid_error: 400,
  not_found: 404,
  unauthorized: 401,
  passcode_invalid: 401,
  passcode_max_attempts_reached: 401,
  passkey_invalid: 401,
  webauthn_credential_invalid_mfa_only: 401,
  otp_code_invalid: 401,
  otp_code_already_used: 401,
  rate_limit_exceeded: 429,
  email_already_exists: 400,
  username_already_exists: 400,
  unknown_username_error: 400,
  unknown_email_error: 400,
  invalid_username_error: 400,
  value_missing_error: 400,
  value_invalid_error: 400,
  value_too_long_error: 400,
  value_too_short_error: 400,
  webauthn_credential_already_exists: 400,
  invalid_metadata_error: 400,
  third_party_access_denied: 403,
} as const;
export type FlowErrorCode = keyof typeof FLOW_ERROR_STATUS;

/**
 * How the flow API answers a domain code: Hanko's flow code, the HTTP status, and the message when the
 * domain's (a platform status text such as "Conflict") says less than Hanko's would. The error's details
 * follow the message in parentheses.
 */
export interface FlowAnswerError {
  code: FlowErrorCode;
  status: number;
  message?: string;
}

/** A flow code with the status it answers with (FLOW_ERROR_STATUS). */
const answer = (code: FlowErrorCode, message?: string): FlowAnswerError => ({
  code,
  status: FLOW_ERROR_STATUS[code],
  ...(message === undefined ? {} : { message }),
});
const invalid = (status: number): FlowAnswerError => ({ code: "form_data_invalid_error", status });
const UNAUTHORIZED = answer("unauthorized");
const NOT_PERMITTED = answer("operation_not_permitted_error");
const NOT_FOUND = answer("not_found");
const TECHNICAL = answer("technical_error");
const PASSKEY_INVALID = answer("passkey_invalid", "The passkey is invalid");

/**
 * The flow API's answer to each domain code an action throws and has not declared for one of its inputs
 * (`ActionDefinition.inputErrors`). Codes no flow throws keep the status the platform surfaces answer.
 */
export const FLOW_ERRORS: Record<ErrorCode, FlowAnswerError> = {
  BAD_REQUEST: invalid(400),
  VALIDATION_FAILED: invalid(400),
  MALFORMED_JSON: invalid(400),
  UNAUTHORIZED,
  FORBIDDEN: NOT_PERMITTED,
  NOT_FOUND,
  CONFLICT: invalid(409),
  PAYLOAD_TOO_LARGE: invalid(413),
  UNSUPPORTED_MEDIA_TYPE: invalid(415),
  RATE_LIMITED: answer("rate_limit_exceeded"),
  // Hanko has no code for it: a technical error, but 503 with Retry-After, so a client may try again.
  DATABASE_UNAVAILABLE: { code: "technical_error", status: 503 },
  INTERNAL: TECHNICAL,

  // `verify_passcode` puts these on its `code` input as `passcode_invalid`, as Hanko does.
  PASSCODE_INVALID: UNAUTHORIZED,
  PASSCODE_USED: UNAUTHORIZED,
  PASSCODE_NOT_FOUND: UNAUTHORIZED,
  PASSCODE_EXPIRED: invalid(408),
  PASSCODE_ATTEMPTS_EXCEEDED: answer("passcode_max_attempts_reached", "Maximum number of attempts reached"),

  EMAIL_TAKEN: answer("email_already_exists"),
  EMAIL_LIMIT_REACHED: NOT_PERMITTED,
  EMAIL_UNVERIFIED: NOT_PERMITTED,
  EMAIL_UNDELETABLE: NOT_PERMITTED,
  EMAIL_NOT_FOUND: NOT_FOUND,

  USER_NOT_FOUND: NOT_FOUND,
  USER_UNKNOWN: invalid(400),
  USERNAME_TAKEN: answer("username_already_exists"),
  USERNAME_INVALID: answer("invalid_username_error"),
  USERNAME_NOT_ENABLED: NOT_PERMITTED,
  USERNAME_REQUIRED: NOT_PERMITTED,
  USER_LOCKED: answer(
    "operation_not_permitted_error",
    "This account is locked: ask the site's support to unlock it",
  ),
  SIGN_UP_DISABLED: NOT_PERMITTED,
  ACCOUNT_DELETION_DISABLED: NOT_PERMITTED,
  CREDENTIAL_TAKEN: answer("webauthn_credential_already_exists"),

  PASSWORD_INVALID: UNAUTHORIZED,
  PASSWORD_LOCKED: answer(
    "operation_not_permitted_error",
    "The password is locked for a while after too many failed attempts: try again later, or use 'forgot password' to set a new one",
  ),
  PASSWORD_TOO_SHORT: invalid(400),
  PASSWORD_TOO_LONG: invalid(400),
  PASSWORD_NOT_FOUND: NOT_FOUND,
  PASSWORDS_DISABLED: NOT_FOUND,

  SESSION_INVALID: UNAUTHORIZED,
  TOKEN_NOT_FOUND: NOT_FOUND,
  TOKEN_EXPIRED: invalid(422),
  SECOND_FACTOR_REQUIRED: NOT_PERMITTED,

  // A WebAuthn response that does not verify, whatever the step found wrong with it.
  CLIENT_DATA_INVALID: PASSKEY_INVALID,
  CHALLENGE_NOT_FOUND: PASSKEY_INVALID,
  CHALLENGE_EXPIRED: PASSKEY_INVALID,
  ATTESTATION_INVALID: PASSKEY_INVALID,
  CEREMONY_VERIFICATION_FAILED: PASSKEY_INVALID,
  NO_USABLE_CREDENTIAL: invalid(400),
  TRANSACTION_EXISTS: invalid(409),
  CREDENTIAL_NOT_FOUND: NOT_FOUND,

  UAF_REQUEST_NOT_FOUND: NOT_FOUND,
  UAF_REQUEST_NOT_PENDING: invalid(409),
  DEVICE_NOT_FOUND: NOT_FOUND,
  NO_REGISTERED_DEVICE: invalid(400),
  OOB_TOKEN_INVALID: UNAUTHORIZED,

  // A FlowError carries its own flow code; flowAnswerOf never reads this row for one.
  FLOW_REFUSED: invalid(400),
  METADATA_INVALID: answer("invalid_metadata_error"),
  // Third-party sign-in and SAML
  THIRD_PARTY_PROVIDER_NOT_FOUND: NOT_FOUND,
  THIRD_PARTY_STATE_INVALID: invalid(400),
  THIRD_PARTY_PROVIDER_ERROR: invalid(400),
  THIRD_PARTY_ACCESS_DENIED: answer("third_party_access_denied"),
  THIRD_PARTY_EMAIL_MISSING: NOT_PERMITTED,
  THIRD_PARTY_EMAIL_UNVERIFIED: NOT_PERMITTED,
  THIRD_PARTY_LINKING_DISABLED: NOT_PERMITTED,
  REDIRECT_NOT_ALLOWED: invalid(400),
  IDENTITY_NOT_FOUND: NOT_FOUND,
  SAML_PROVIDER_NOT_FOUND: NOT_FOUND,
  SAML_RESPONSE_INVALID: invalid(400),
  SAML_ASSERTION_REPLAYED: invalid(400),
  // Named codes of the admin, console and identity paths: answered as NOT_FOUND and CONFLICT are.
  OPERATOR_NOT_FOUND: NOT_FOUND,
  OPERATOR_PASSKEY_NOT_FOUND: NOT_FOUND,
  TENANT_NOT_FOUND: NOT_FOUND,
  WEBHOOK_NOT_FOUND: NOT_FOUND,
  WEBHOOK_DELIVERY_NOT_FOUND: NOT_FOUND,
  IDENTITY_ALREADY_LINKED: invalid(409),
  IDENTITY_LINKED_ELSEWHERE: invalid(409),
  OPERATOR_EXISTS: invalid(409),
  LAST_OWNER: invalid(409),
  CONSOLE_ALREADY_SET_UP: invalid(409),
  LAST_OPERATOR_PASSKEY: invalid(409),
  WEBHOOK_LIMIT_REACHED: invalid(409),
  // Named codes that replaced generic ones: answered exactly as the generic code was.
  PASSCODE_EMAIL_UNAVAILABLE: invalid(400),
  PASSCODE_EMAIL_MISSING: invalid(400),
  NEW_USER_INVALID: invalid(400),
  USER_EXISTS: invalid(409),
  PASSWORD_EXISTS: invalid(409),
  SESSION_NOT_FOUND: NOT_FOUND,
  NOT_SESSION_USER: NOT_PERMITTED,
  SESSION_REQUIRED: NOT_PERMITTED,
  OTP_SECRET_NOT_FOUND: NOT_FOUND,
  TRANSACTION_NOT_FOUND: UNAUTHORIZED,
  SAML_DOMAIN_TAKEN: invalid(409),
  THIRD_PARTY_PROVIDER_EXISTS: invalid(409),
  OPERATOR_PASSKEY_UNKNOWN: UNAUTHORIZED,
  RECENT_SIGN_IN_REQUIRED: NOT_PERMITTED,
  CONSOLE_SESSION_ENDED: UNAUTHORIZED,
  CONSOLE_ROLE_INSUFFICIENT: NOT_PERMITTED,
  API_KEY_INVALID: UNAUTHORIZED,
  API_KEY_NOT_FOUND: NOT_FOUND,
  METRICS_TOKEN_INVALID: UNAUTHORIZED,
  AUDIT_CURSOR_INVALID: invalid(400),
  OAUTH_CLIENT_NOT_FOUND: NOT_FOUND,
  OAUTH_CONSENT_NOT_FOUND: NOT_FOUND,
  EXAMPLES_DISABLED: NOT_FOUND,
  OPENAPI_DOCUMENT_NOT_FOUND: NOT_FOUND,
};

/**
 * An expected failure of a flow step, named by its flow code (its status is that code's in
 * FLOW_ERROR_STATUS). With `input`, it belongs to that input of the action (the answer is
 * `form_data_invalid_error` with the code on `inputs.<input>.error`); otherwise it is the answer's
 * `error`. The flow stays in its state; the client may try again.
 */
export class FlowError extends AppError {
  readonly flowCode: FlowErrorCode;
  readonly input: string | undefined;
  /**
   * The state the flow starts over from instead of staying (e.g. `login_init` after too many wrong
   * second-factor codes): what the refused step did stays done, the stash is dropped.
   */
  readonly restartAt: string | undefined;

  constructor(
    flowCode: FlowErrorCode,
    message: string,
    options: { input?: string; retryAfterSeconds?: number; cause?: unknown; restartAt?: string } = {},
  ) {
    super("FLOW_REFUSED", message, options);
    this.flowCode = flowCode;
    this.input = options.input;
    this.restartAt = options.restartAt;
  }
}

/** The flow code and status the flow API answers an error with: a FlowError's own, else the table's. */
export function flowAnswerOf(error: AppError): FlowAnswerError {
  if (error instanceof FlowError) return answer(error.flowCode);
  return FLOW_ERRORS[error.code];
}

/** Where an action puts a domain code it expects: on `input`, as `code` (else the table's flow code). */
export interface InputErrorRule {
  input: string;
  code?: FlowErrorCode;
  /** The message shown instead of the domain's (its details still follow in parentheses). */
  message?: string;
}

/** The domain codes an action answers on one of its inputs (Hanko's `c.Input().SetError`). */
export type InputErrorRules = Partial<Record<ErrorCode, InputErrorRule>>;

/** What a refused step answers: a flow code and message, on an input of the action or on the flow. */
export interface FlowRefusal {
  code: FlowErrorCode;
  message: string;
  input?: string;
  restartAt?: string;
}

function messageOf(error: AppError, lead: string | undefined): string {
  const detail = error.details.join("; ");
  if (lead === undefined) return detail || error.message;
  return detail ? `${lead} (${detail})` : lead;
}

/**
 * How the flow API answers an AppError an action threw: a FlowError as it says; a code the action
 * declared on one of its inputs there; any other code as FLOW_ERRORS says.
 */
export function refusalOf(error: AppError, rules: InputErrorRules = {}): FlowRefusal {
  if (error instanceof FlowError) {
    return {
      code: error.flowCode,
      message: error.message,
      ...(error.input === undefined ? {} : { input: error.input }),
      ...(error.restartAt === undefined ? {} : { restartAt: error.restartAt }),
    };
  }
  const row = FLOW_ERRORS[error.code];
  const rule = rules[error.code];
  if (!rule) return { code: row.code, message: messageOf(error, row.message) };
  return {
    code: rule.code ?? row.code,
    message: messageOf(error, rule.message ?? row.message),
    input: rule.input,
  };
}

export const flowErrors = {
  notPermitted: (why: string) =>
    new FlowError("operation_not_permitted_error", `Operation not permitted: ${why}`),
  expired: () => new FlowError("flow_expired_error", "The flow has expired"),
  formInvalid: () => new FlowError("form_data_invalid_error", "Form data invalid"),
  unauthorized: () => new FlowError("unauthorized", "The session is invalid or has expired"),
};
