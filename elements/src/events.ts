/**
 * The DOM events of Sesame's elements and SDK, named in one place. Every event is a `CustomEvent`
 * with `bubbles` and `composed`, so a listener on `document` hears it from inside a shadow root. The
 * name is `<prefix>-<event>`; the prefix is `sesame` unless `register(api, { eventPrefix })` says
 * otherwise.
 */
export const EVENTS = {
  /** A flow ended with a session (login, registration or token exchange). */
  authSuccess: "auth-success",
  /** A flow step failed (wrong code, unknown address, network, …); the element stays usable. */
  authError: "auth-error",
  /** A login flow ended with a session (after `auth-success`). */
  login: "login",
  /** A registration flow created the user and a session (after `auth-success`). */
  registration: "registration",
  /** `logout()` ended the session. */
  logout: "logout",
  /** A session the SDK knew to be valid is not any more (expired, revoked, or ended elsewhere). */
  sessionExpired: "session-expired",
} as const;

export type EventKey = keyof typeof EVENTS;
export type FlowName = "login" | "registration" | "profile" | "token_exchange";

/** The session claims a successful flow hands over (`payload.claims` of its `success` state). */
export interface SessionClaims {
  subject: string;
  session_id?: string;
  expiration: string;
  issued_at?: string;
  audience?: string[];
  issuer?: string;
  email?: { address: string; is_primary: boolean; is_verified: boolean };
  username?: string;
  amr?: string[];
  [claim: string]: unknown;
}

export interface AuthSuccessDetail {
  flow: FlowName;
  userId: string;
  /** How the user proved themselves: the session's first `amr` entry (`passkey`, `otp`, `pwd`, …). */
  method: string | null;
  claims: SessionClaims;
}

export interface AuthErrorDetail {
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

export interface LoginDetail {
  userId: string;
  method: string | null;
}

export interface RegistrationDetail {
  userId: string;
}

export interface LogoutDetail {
  userId: string | null;
}

export interface SessionExpiredDetail {
  userId: string | null;
}

export interface EventDetails {
  authSuccess: AuthSuccessDetail;
  authError: AuthErrorDetail;
  login: LoginDetail;
  registration: RegistrationDetail;
  logout: LogoutDetail;
  sessionExpired: SessionExpiredDetail;
}

export function eventName(prefix: string, key: EventKey): string {
  return `${prefix}-${EVENTS[key]}`;
}

export function dispatch<K extends EventKey>(
  target: EventTarget,
  prefix: string,
  key: K,
  detail: EventDetails[K],
): void {
  target.dispatchEvent(new CustomEvent(eventName(prefix, key), { detail, bubbles: true, composed: true }));
}

/** Listens for one event on `document`; returns the function that stops listening. */
export function listen<K extends EventKey>(
  prefix: string,
  key: K,
  callback: (detail: EventDetails[K]) => void,
): () => void {
  const name = eventName(prefix, key);
  const listener = (event: Event) => callback((event as CustomEvent<EventDetails[K]>).detail);
  document.addEventListener(name, listener);
  return () => document.removeEventListener(name, listener);
}
