/**
 * UAF status codes (fido-uaf-client-api-transport-v1.1 §3.1) and the one error type the verifier throws.
 */
export const UafStatus = {
  OK: 1200,
  ACCEPTED: 1202,
  BAD_REQUEST: 1400,
  UNAUTHORIZED: 1401,
  FORBIDDEN: 1403,
  NOT_FOUND: 1404,
  REQUEST_TIMEOUT: 1408,
  UNKNOWN_AAID: 1480,
  UNKNOWN_KEYID: 1481,
  CHANNEL_BINDING_REFUSED: 1490,
  REQUEST_INVALID: 1491,
  UNACCEPTABLE_AUTHENTICATOR: 1492,
  REVOKED_AUTHENTICATOR: 1493,
  UNACCEPTABLE_KEY: 1494,
  UNACCEPTABLE_ALGORITHM: 1495,
  UNACCEPTABLE_ATTESTATION: 1496,
  UNACCEPTABLE_CLIENT_CAPABILITIES: 1497,
  UNACCEPTABLE_CONTENT: 1498,
  INTERNAL_SERVER_ERROR: 1500,
} as const;

export type UafStatusCode = (typeof UafStatus)[keyof typeof UafStatus];

/** Stable, machine-readable reasons; `message` carries the human sentence. */
export type UafReason =
  | "malformed_message"
  | "malformed_fc_params"
  | "malformed_assertion"
  | "unsupported_version"
  | "wrong_operation"
  | "app_id_mismatch"
  | "server_data_mismatch"
  | "server_data_invalid"
  | "server_data_expired"
  | "challenge_mismatch"
  | "untrusted_facet"
  | "channel_binding_mismatch"
  | "unknown_critical_extension"
  | "no_assertion"
  | "too_many_assertions"
  | "final_challenge_hash_mismatch"
  | "wrong_authentication_mode"
  | "policy_not_satisfied"
  | "disallowed_authenticator"
  | "unknown_aaid"
  | "unknown_key_id"
  | "unsupported_algorithm"
  | "bad_public_key"
  | "attestation_not_accepted"
  | "attestation_untrusted"
  | "attestation_expired"
  | "attestation_signature_invalid"
  | "signature_invalid"
  | "counter_regression"
  | "nonce_too_short"
  | "transaction_mismatch"
  | "transaction_not_confirmed"
  // Decided by the server around the verifier (lib/uaf-requests):
  | "request_expired"
  | "key_already_registered";

export class UafError extends Error {
  readonly code: UafStatusCode;
  readonly reason: UafReason;

  constructor(code: UafStatusCode, reason: UafReason, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "UafError";
    this.code = code;
    this.reason = reason;
  }
}
