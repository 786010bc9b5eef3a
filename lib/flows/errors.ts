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
} as const;
export type FlowErrorCode = keyof typeof FLOW_ERROR_STATUS;

/** How the flow API answers an error: Hanko's flow code and the HTTP status. */
export interface FlowAnswerError {
  code: FlowErrorCode;
  status: number;
}

const invalid = (status: number): FlowAnswerError => ({ code: "form_data_invalid_error", status });
const UNAUTHORIZED: FlowAnswerError = { code: "unauthorized", status: 401 };
const NOT_PERMITTED: FlowAnswerError = { code: "operation_not_permitted_error", status: 403 };
const NOT_FOUND: FlowAnswerError = { code: "not_found", status: 404 };
const TECHNICAL: FlowAnswerError = { code: "technical_error", status: 500 };

/**
 * The flow API's answer to each domain code that reaches it untranslated (flow actions turn most of
 * them into a FlowError of their own first): the statuses are the platform surfaces', the code the
 * nearest of Hanko's.
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
  RATE_LIMITED: { code: "rate_limit_exceeded", status: 429 },
  DATABASE_UNAVAILABLE: TECHNICAL,
  INTERNAL: TECHNICAL,

  PASSCODE_INVALID: UNAUTHORIZED,
  PASSCODE_USED: UNAUTHORIZED,
  PASSCODE_NOT_FOUND: UNAUTHORIZED,
  PASSCODE_EXPIRED: invalid(408),
  PASSCODE_ATTEMPTS_EXCEEDED: { code: "flow_expired_error", status: 410 },

  EMAIL_TAKEN: invalid(409),
  EMAIL_LIMIT_REACHED: invalid(409),
  EMAIL_UNVERIFIED: invalid(409),
  EMAIL_UNDELETABLE: invalid(409),
  EMAIL_NOT_FOUND: NOT_FOUND,

  USER_NOT_FOUND: NOT_FOUND,
  USER_UNKNOWN: invalid(400),
  USERNAME_TAKEN: invalid(409),
  USERNAME_INVALID: invalid(400),
  USERNAME_NOT_ENABLED: NOT_PERMITTED,
  USERNAME_REQUIRED: NOT_PERMITTED,
  SIGN_UP_DISABLED: NOT_PERMITTED,
  ACCOUNT_DELETION_DISABLED: NOT_PERMITTED,
  CREDENTIAL_TAKEN: invalid(409),

  PASSWORD_INVALID: UNAUTHORIZED,
  PASSWORD_LOCKED: NOT_PERMITTED,
  PASSWORD_TOO_SHORT: invalid(400),
  PASSWORD_TOO_LONG: invalid(400),
  PASSWORD_NOT_FOUND: NOT_FOUND,
  PASSWORDS_DISABLED: NOT_FOUND,

  SESSION_INVALID: UNAUTHORIZED,
  TOKEN_NOT_FOUND: NOT_FOUND,
  TOKEN_EXPIRED: invalid(422),
  SECOND_FACTOR_REQUIRED: NOT_PERMITTED,

  CLIENT_DATA_INVALID: invalid(400),
  CHALLENGE_NOT_FOUND: invalid(400),
  CHALLENGE_EXPIRED: invalid(400),
  ATTESTATION_INVALID: invalid(400),
  CEREMONY_VERIFICATION_FAILED: UNAUTHORIZED,
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
};

/**
 * An expected failure of a flow step, named by its flow code (its status is that code's in
 * FLOW_ERROR_STATUS). With `input`, it belongs to that input of the action (the answer is
 * `form_data_invalid_error` with the code on `inputs.<input>.error`); otherwise it is the answer's
 * `error`. Failures below 500 keep the flow in its state; the client may try again.
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
  if (error instanceof FlowError) return { code: error.flowCode, status: FLOW_ERROR_STATUS[error.flowCode] };
  return FLOW_ERRORS[error.code];
}

/** An AppError of the domain (passcodes, passwords, ceremonies) as the flow code the elements know. */
export function flowCodeOf(error: AppError): FlowErrorCode {
  return flowAnswerOf(error).code;
}

// TRANSITIONAL (issue 14, first wave): the flow definitions and the engine still switch on
// `error.status`. This getter gives them the flow API's status of any AppError (flowAnswerOf) and is
// the only `status` an AppError has; nothing outside lib/flows may read it. The second wave, where
// actions declare which input a code belongs to, deletes it with those switches.
declare module "../errors/app-error" {
  interface AppError {
    /** @deprecated Transitional, lib/flows only: the flow API's status of this error (flowAnswerOf). */
    readonly status: number;
  }
}
Object.defineProperty(AppError.prototype, "status", {
  configurable: true,
  get(this: AppError): number {
    return flowAnswerOf(this).status;
  },
});

export const flowErrors = {
  notPermitted: (why: string) =>
    new FlowError("operation_not_permitted_error", `Operation not permitted: ${why}`),
  expired: () => new FlowError("flow_expired_error", "The flow has expired"),
  formInvalid: () => new FlowError("form_data_invalid_error", "Form data invalid"),
  unauthorized: () => new FlowError("unauthorized", "The session is invalid or has expired"),
  technical: (cause?: unknown) => new FlowError("technical_error", "Something went wrong", { cause }),
};
