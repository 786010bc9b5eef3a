import { AppError, type ErrorCode } from "@/lib/errors";

/**
 * Hanko's flow error codes (backend/flowpilot/errors.go, flow_api/flow/shared/errors.go): the
 * elements translate `error.code`, so these spellings are the wire format.
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

const APP_CODE: Record<number, ErrorCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  410: "GONE",
  429: "RATE_LIMITED",
  500: "INTERNAL",
};

/**
 * An expected failure of a flow step. With `input`, it belongs to that input of the action (the answer
 * is `form_data_invalid_error` with the code on `inputs.<input>.error`); otherwise it is the answer's
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
    super(APP_CODE[FLOW_ERROR_STATUS[flowCode]] ?? "BAD_REQUEST", message, options);
    this.flowCode = flowCode;
    this.input = options.input;
    this.restartAt = options.restartAt;
  }

  override get status(): number {
    return FLOW_ERROR_STATUS[this.flowCode];
  }
}

/** An AppError of the domain (passcodes, passwords, ceremonies) as the flow code the elements know. */
export function flowCodeOf(error: AppError): FlowErrorCode {
  if (error instanceof FlowError) return error.flowCode;
  switch (error.status) {
    case 401:
      return "unauthorized";
    case 403:
      return "operation_not_permitted_error";
    case 404:
      return "not_found";
    case 410:
      return "flow_expired_error";
    case 429:
      return "rate_limit_exceeded";
    default:
      return error.status >= 500 ? "technical_error" : "form_data_invalid_error";
  }
}

export const flowErrors = {
  notPermitted: (why: string) =>
    new FlowError("operation_not_permitted_error", `Operation not permitted: ${why}`),
  expired: () => new FlowError("flow_expired_error", "The flow has expired"),
  formInvalid: () => new FlowError("form_data_invalid_error", "Form data invalid"),
  unauthorized: () => new FlowError("unauthorized", "The session is invalid or has expired"),
  technical: (cause?: unknown) => new FlowError("technical_error", "Something went wrong", { cause }),
};
