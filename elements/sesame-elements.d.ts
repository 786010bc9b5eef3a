/**
 * Type declarations of Sesame's elements bundle (`/elements/v1/sesame-elements.js`). Copy this file next
 * to your code (or reference it) to get typed `register()`, events and elements, in plain TypeScript and
 * in React 19 (which reads intrinsic elements from `React.JSX`, not from a global `JSX`).
 *
 * Generated from elements/src by scripts/elements-declarations.ts: do not edit.
 */
/* eslint-disable @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- generated */

import type { DetailedHTMLProps, HTMLAttributes } from "react";

/**
 * The DOM events of Sesame's elements and SDK, named in one place. Every event is a `CustomEvent`
 * with `bubbles` and `composed`, so a listener on `document` hears it from inside a shadow root. The
 * name is `<prefix>-<event>`; the prefix is `sesame` unless `register(api, { eventPrefix })` says
 * otherwise.
 */
declare const EVENTS: {
  /** A flow ended with a session (login, registration or token exchange). */
  readonly authSuccess: "auth-success";
  /** A flow step failed (wrong code, unknown address, network, …); the element stays usable. */
  readonly authError: "auth-error";
  /** A login flow ended with a session (after `auth-success`). */
  readonly login: "login";
  /** A registration flow created the user and a session (after `auth-success`). */
  readonly registration: "registration";
  /** `logout()` ended the session. */
  readonly logout: "logout";
  /** A session the SDK knew to be valid is not any more (expired, revoked, or ended elsewhere). */
  readonly sessionExpired: "session-expired";
};

type EventKey = keyof typeof EVENTS;

type FlowName = "login" | "registration" | "profile" | "token_exchange";

/** The session claims a successful flow hands over (`payload.claims` of its `success` state). */
interface SessionClaims {
  subject: string;
  session_id?: string;
  expiration: string;
  issued_at?: string;
  audience?: string[];
  issuer?: string;
  email?: {
    address: string;
    is_primary: boolean;
    is_verified: boolean;
  };
  username?: string;
  amr?: string[];
  [claim: string]: unknown;
}

interface AuthSuccessDetail {
  flow: FlowName;
  userId: string;
  /** How the user proved themselves: the session's first `amr` entry (`passkey`, `otp`, `pwd`, …). */
  method: string | null;
  claims: SessionClaims;
}

interface AuthErrorDetail {
  flow: FlowName;
  /** The flow state the error happened in. */
  state: string;
  /**
   * Hanko's flow error code (`form_data_invalid_error` when it is on an input, such as a wrong passcode;
   * `passcode_max_attempts_reached`, `unknown_email_error`, …) or `network_error`.
   */
  code: string;
  message: string;
}

interface LoginDetail {
  userId: string;
  method: string | null;
}

interface RegistrationDetail {
  userId: string;
}

interface LogoutDetail {
  userId: string | null;
}

interface SessionExpiredDetail {
  userId: string | null;
}

interface EventDetails {
  authSuccess: AuthSuccessDetail;
  authError: AuthErrorDetail;
  login: LoginDetail;
  registration: RegistrationDetail;
  logout: LogoutDetail;
  sessionExpired: SessionExpiredDetail;
}

declare function eventName(prefix: string, key: EventKey): string;

/** One input of a flow action, as the flow API declares it (Hanko's wire format). */
interface FlowInput {
  name: string;
  type: "string" | "email" | "password" | "boolean" | "number" | "json";
  required?: boolean;
  hidden?: boolean;
  min_length?: number;
  max_length?: number;
  allowed_values?: {
    value: string;
    name: string;
  }[];
  error?: {
    code: string;
    message: string;
  } | null;
}

interface FlowAction {
  href: string;
  action: string;
  description?: string;
  inputs?: Record<string, FlowInput>;
}

interface FlowState {
  name: string;
  status: number;
  payload?: Record<string, unknown> | null;
  actions?: Record<string, FlowAction> | null;
  csrf_token: string;
  error?: {
    code: string;
    message: string;
  } | null;
}

interface SessionValidation {
  is_valid: boolean;
  claims?: {
    subject: string;
    expiration?: string;
    [claim: string]: unknown;
  };
  expiration_time?: string;
  user_id?: string;
}

interface CurrentUser {
  id: string;
  email?: string;
  username?: string;
  emails?: {
    id: string;
    address: string;
    is_verified: boolean;
    is_primary: boolean;
  }[];
  [field: string]: unknown;
}

interface ClientOptions {
  eventPrefix: string;
  /** How often a known-valid session is checked (ms); 0 = never. Hanko's default is 30 s. */
  sessionCheckInterval: number;
}

/** A failure talking to the API that is not a flow state (network down, HTTP error outside a flow). */
declare class SesameRequestError extends Error {
  readonly status: number;
  constructor(message: string, status: number);
}

/**
 * The browser SDK: flows, the session and the user, against one tenant URL (`{tenant_url}`).
 * Same-site pages use the session cookie; in the tenant's cross-domain mode the `X-Auth-Token` the API
 * hands out is kept in `localStorage` and sent as a Bearer token.
 */
declare class SesameClient {
  readonly api: string;
  readonly options: ClientOptions;
  private knownUserId;
  private checkTimer;
  constructor(api: string, options?: Partial<ClientOptions>);
  private get tokenKey();
  private token;
  private storeToken;
  /** A request to the tenant URL with the session (cookie and, when known, the Bearer token). */
  request(path: string, init?: RequestInit): Promise<Response>;
  private flowRequest;
  /** `POST {tenant_url}/{flow}`: a new flow in its first state. */
  startFlow(flow: FlowName): Promise<FlowState>;
  /** Submits an action of `state` with its input values; answers the next state (or the same, with errors). */
  runAction(state: FlowState, action: string, inputs?: Record<string, unknown>): Promise<FlowState>;
  /** `GET {tenant_url}/sessions/validate`: whether this browser holds a valid session. */
  validateSession(): Promise<SessionValidation>;
  /** The signed-in user (`GET /me`, then `GET /users/{id}`), or null without a valid session. */
  getCurrentUser(): Promise<CurrentUser | null>;
  /**
   * @deprecated Use `getCurrentUser()`; `getUser()` stays for older integrations, answers the same and
   * warns once.
   */
  getUser(): Promise<CurrentUser | null>;
  /** Ends the session (`POST /logout`), forgets the token and dispatches `<prefix>-logout`. */
  logout(): Promise<void>;
  /** Called when a flow ends with a session: starts watching it for expiry. */
  sessionStarted(userId: string): void;
  /** Watches a known session: when it stops being valid, `<prefix>-session-expired` fires once. */
  private track;
  private checkSession;
  /** Forgets the session of `userId` and dispatches `<prefix>-session-expired`, once per known session. */
  private sessionEnded;
  /** `on("authSuccess", detail => …)`: listens on `document`; returns the function that stops it. */
  on<K extends EventKey>(key: K, callback: (detail: EventDetails[K]) => void): () => void;
  onAuthSuccess(callback: (detail: EventDetails["authSuccess"]) => void): () => void;
  onAuthError(callback: (detail: EventDetails["authError"]) => void): () => void;
  onLogout(callback: (detail: EventDetails["logout"]) => void): () => void;
  onSessionExpired(callback: (detail: EventDetails["sessionExpired"]) => void): () => void;
}

/**
 * Texts of the elements. English is complete by definition; every other language must have every key
 * (`satisfies Messages`), so a missing German text is a type error, not an English word on a German
 * page. `register(api, { translations })` adds languages or overrides single texts; a key missing in
 * a custom language falls back to English.
 */
declare const en: {
  readonly "state.login_init": "Sign in";
  readonly "state.login_method_chooser": "Choose how to sign in";
  readonly "state.login_passkey": "Sign in with a passkey";
  readonly "state.login_password": "Enter your password";
  readonly "state.login_password_recovery": "Set a new password";
  readonly "state.login_otp": "Enter the code from your authenticator app";
  readonly "state.login_security_key": "Use your security key";
  readonly "state.passcode_confirmation": "Enter the code we emailed you";
  readonly "state.registration_init": "Create account";
  readonly "state.onboarding_create_passkey": "Create a passkey";
  readonly "state.onboarding_verify_passkey_attestation": "Create a passkey";
  readonly "state.webauthn_credential_verification": "Confirm with your device";
  readonly "state.password_creation": "Choose a password";
  readonly "state.credential_onboarding_chooser": "How do you want to sign in next time?";
  readonly "state.mfa_otp_secret_creation": "Set up an authenticator app";
  readonly "state.profile_init": "Your account";
  readonly "state.account_deleted": "Account deleted";
  readonly "state.success": "You are signed in";
  readonly "state.thirdparty": "Continue with your provider";
  readonly "state.error": "Something went wrong";
  readonly "state.loading": "Loading …";
  readonly "action.continue_with_login_identifier": "Continue";
  readonly "action.register_login_identifier": "Continue";
  readonly "action.webauthn_generate_request_options": "Sign in with a passkey";
  readonly "action.webauthn_generate_creation_options": "Create a passkey";
  readonly "action.continue_to_password_login": "Sign in with a password";
  readonly "action.continue_to_passcode_confirmation": "Email me a code";
  readonly "action.continue_to_passcode_confirmation_recovery": "Forgot your password?";
  readonly "action.password_login": "Sign in";
  readonly "action.password_recovery": "Save password";
  readonly "action.verify_passcode": "Continue";
  readonly "action.resend_passcode": "Send a new code";
  readonly "action.otp_code_validate": "Continue";
  readonly "action.otp_code_verify": "Continue";
  readonly "action.continue_to_login_otp": "Use your authenticator app";
  readonly "action.continue_to_login_security_key": "Use a security key";
  readonly "action.register_password": "Continue";
  readonly "action.continue_to_password_registration": "Use a password instead";
  readonly "action.continue_to_passkey_registration": "Use a passkey instead";
  readonly "action.skip": "Skip";
  readonly "action.back": "Back";
  readonly "action.exchange_token": "Continue";
  readonly "action.email_create": "Add email address";
  readonly "action.email_delete": "Delete";
  readonly "action.email_set_primary": "Make primary";
  readonly "action.email_verify": "Verify";
  readonly "action.webauthn_credential_create": "Create a passkey";
  readonly "action.webauthn_credential_rename": "Rename";
  readonly "action.webauthn_credential_delete": "Delete";
  readonly "action.security_key_create": "Add a security key";
  readonly "action.security_key_delete": "Delete";
  readonly "action.password_create": "Set password";
  readonly "action.password_update": "Change password";
  readonly "action.password_delete": "Delete password";
  readonly "action.username_create": "Set username";
  readonly "action.username_update": "Change username";
  readonly "action.username_delete": "Delete username";
  readonly "action.continue_to_otp_secret_creation": "Set up an authenticator app";
  readonly "action.otp_secret_delete": "Remove the authenticator app";
  readonly "action.session_delete": "Revoke";
  readonly "action.account_delete": "Delete account";
  readonly "action.thirdparty_oauth": "Sign in with {provider}";
  readonly "action.connect_thirdparty_oauth_provider": "Connect {provider}";
  readonly "action.disconnect_thirdparty_oauth_provider": "Disconnect";
  readonly "input.email": "Email";
  readonly "input.identifier": "Email or username";
  readonly "input.username": "Username";
  readonly "input.password": "Password";
  readonly "input.new_password": "New password";
  readonly "input.code": "Code";
  readonly "input.otp_code": "Code";
  readonly "input.passkey_name": "New name";
  readonly "input.token": "Token";
  readonly "text.or": "or";
  readonly "text.noAccount": "No account yet?";
  readonly "text.haveAccount": "Already have an account?";
  readonly "text.signUp": "Create account";
  readonly "text.signIn": "Sign in";
  readonly "text.codeSentTo": "We sent a code to {address}.";
  readonly "text.resendIn": "You can ask for a new code in {seconds} s.";
  readonly "text.signedIn": "You are signed in.";
  readonly "text.accountDeleted": "Your account is deleted.";
  readonly "text.tryAgain": "Try again";
  readonly "text.passkeyExplained": "A passkey signs you in with your fingerprint, face or screen lock instead of a password, and cannot be phished.";
  readonly "text.save": "Save";
  readonly "text.cancel": "Cancel";
  readonly "text.confirmDelete": "Delete your account for good? This cannot be undone.";
  readonly "text.confirm": "Yes, delete";
  readonly "text.emails": "Email addresses";
  readonly "text.primary": "primary";
  readonly "text.unverified": "unverified";
  readonly "text.passkeys": "Passkeys";
  readonly "text.noPasskeys": "No passkeys yet.";
  readonly "text.securityKeys": "Security keys";
  readonly "text.authenticatorApp": "Authenticator app";
  readonly "text.authenticatorAppSet": "An authenticator app is set up.";
  readonly "text.otpScan": "Scan the QR code with your authenticator app, or enter the secret {secret}, then type the code it shows.";
  readonly "text.otpImage": "QR code for the authenticator app";
  readonly "text.password": "Password";
  readonly "text.username": "Username";
  readonly "text.sessions": "Sessions";
  readonly "text.currentSession": "this device";
  readonly "text.unknownDevice": "Unknown device";
  readonly "text.lastUsed": "last used {date}";
  readonly "text.createdAt": "created {date}";
  readonly "text.dangerZone": "Delete account";
  readonly "text.busy": "Working …";
  readonly "text.required": "required";
  readonly "text.notSignedIn": "You are not signed in.";
  readonly "text.connectedAccounts": "Connected accounts";
  readonly "text.redirecting": "You are being taken to the sign-in page of your provider …";
  readonly "text.continueToProvider": "Continue to the sign-in page";
  readonly "error.technical_error": "Something went wrong. Please try again.";
  readonly "error.network_error": "Sesame cannot be reached. Check your connection and try again.";
  readonly "error.flow_expired_error": "This took too long. Please start again.";
  readonly "error.operation_not_permitted_error": "This is not possible right now.";
  readonly "error.user_locked": "This account is locked. Contact the site's support to have it unlocked.";
  readonly "error.form_data_invalid_error": "Please check your input.";
  readonly "error.value_missing_error": "Please fill in this field.";
  readonly "error.value_invalid_error": "This value is not valid.";
  readonly "error.value_too_short_error": "This value is too short.";
  readonly "error.value_too_long_error": "This value is too long.";
  readonly "error.unknown_email_error": "There is no account with this email address.";
  readonly "error.unknown_username_error": "There is no account with this username.";
  readonly "error.email_already_exists": "This email address is already in use.";
  readonly "error.username_already_exists": "This username is taken.";
  readonly "error.passcode_invalid": "The code is wrong.";
  readonly "error.passcode_expired": "The code has expired. Ask for a new one.";
  readonly "error.passcode_max_attempts_reached": "Too many wrong codes. Ask for a new one.";
  readonly "error.passkey_invalid": "The passkey was not accepted.";
  readonly "error.rate_limit_exceeded": "Too many attempts. Please wait a moment.";
  readonly "error.unauthorized": "Your session has ended. Please sign in again.";
  readonly "error.not_found": "Not found.";
  readonly "error.webauthn_cancelled": "The passkey request was cancelled or timed out.";
  readonly "error.webauthn_credential_exists": "This device or password manager already holds a passkey for your account. Use that one, or add a passkey on another device.";
  readonly "error.signup_disabled": "Sign-up is turned off.";
  readonly "error.third_party_access_denied": "The sign-in at the provider was cancelled or refused.";
};

type MessageKey = keyof typeof en;

type Messages = Record<MessageKey, string>;

declare const BUILT_IN: Record<string, Messages>;

type Translations = Record<string, Partial<Messages>>;

interface SesameElementAttributes {
  lang?: string;
}

interface SesameAuthAttributes extends SesameElementAttributes {
  mode?: "login" | "registration";
  /** The identifier the login's first step starts with (e.g. OpenID Connect's `login_hint`). */
  "login-hint"?: string;
}

/** The events under the default prefix `sesame`: `sesame-auth-success`, … */
type SesameDocumentEvents = {
  [K in EventKey as `sesame-${(typeof EVENTS)[K]}`]: CustomEvent<EventDetails[K]>;
};

type ElementProps<A> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & A;

declare global {
  interface HTMLElementTagNameMap {
    "sesame-auth": HTMLElement & SesameAuthAttributes;
    "sesame-login": HTMLElement & SesameElementAttributes;
    "sesame-registration": HTMLElement & SesameElementAttributes;
    "sesame-profile": HTMLElement & SesameElementAttributes;
    "sesame-events": HTMLElement;
  }
  interface DocumentEventMap extends SesameDocumentEvents {}
}

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "sesame-auth": ElementProps<SesameAuthAttributes>;
      "sesame-login": ElementProps<SesameElementAttributes>;
      "sesame-registration": ElementProps<SesameElementAttributes>;
      "sesame-profile": ElementProps<SesameElementAttributes>;
      "sesame-events": ElementProps<object>;
    }
  }
}

interface RegisterOptions {
  /** Events are named `<eventPrefix>-auth-success` … (default `sesame`). */
  eventPrefix?: string;
  /** Render inside a shadow root (default) or in the light DOM, where password managers see the inputs. */
  shadow?: boolean;
  /** Language when an element has no `lang` attribute (default: the page's `<html lang>`, else English). */
  lang?: string;
  /** Extra languages, or single texts to override: `{ de: { "state.login_init": "Hallo" } }`. */
  translations?: Translations;
  /** How often a known session is checked for expiry, in ms (default 30 000; 0 = never). */
  sessionCheckInterval?: number;
}

/** Defines the elements (once per page) and answers the SDK client for `apiUrl` (the tenant URL). */
declare function register(
  apiUrl: string,
  options?: RegisterOptions,
): Promise<{
  sesame: SesameClient;
}>;

export { BUILT_IN as translations, eventName, EVENTS, register, SesameClient, SesameRequestError };
export type {
  AuthErrorDetail,
  AuthSuccessDetail,
  CurrentUser,
  EventDetails,
  EventKey,
  FlowAction,
  FlowInput,
  FlowName,
  FlowState,
  LoginDetail,
  LogoutDetail,
  MessageKey,
  Messages,
  RegisterOptions,
  RegistrationDetail,
  SesameAuthAttributes,
  SesameDocumentEvents,
  SesameElementAttributes,
  SessionClaims,
  SessionExpiredDetail,
  SessionValidation,
  Translations,
};
