/** Stash keys every flow shares. */
export const STASH = {
  /** What the client said it can do (`register_client_capabilities`). */
  webauthnAvailable: "webauthn_available",
  conditionalMediation: "webauthn_conditional_mediation_available",
  platformAuthenticator: "webauthn_platform_authenticator_available",
  /** The user a `success` belongs to and how they logged in. */
  successUser: "success_user_id",
  lastLogin: "last_login",
} as const;
