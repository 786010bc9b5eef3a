/**
 * Type declarations of Sesame's elements bundle (`/elements/v1/sesame-elements.js`). Copy this file next
 * to your code (or reference it) to get typed `register()`, events and elements, in plain TypeScript and
 * in React 19 (which reads intrinsic elements from `React.JSX`, not from a global `JSX`).
 */
import type { DetailedHTMLProps, HTMLAttributes } from "react";

export type FlowName = "login" | "registration" | "profile" | "token_exchange";

export interface SessionClaims {
  subject: string;
  session_id?: string;
  expiration: string;
  email?: { address: string; is_primary: boolean; is_verified: boolean };
  username?: string;
  amr?: string[];
  [claim: string]: unknown;
}

export interface AuthSuccessDetail {
  flow: FlowName;
  userId: string;
  method: string | null;
  claims: SessionClaims;
}
export interface AuthErrorDetail {
  flow: FlowName;
  state: string;
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
export type EventKey = keyof EventDetails;

export declare const EVENTS: {
  readonly authSuccess: "auth-success";
  readonly authError: "auth-error";
  readonly login: "login";
  readonly registration: "registration";
  readonly logout: "logout";
  readonly sessionExpired: "session-expired";
};
export declare function eventName(prefix: string, key: EventKey): string;

export interface SessionValidation {
  is_valid: boolean;
  claims?: { subject: string; expiration?: string; [claim: string]: unknown };
}

export interface CurrentUser {
  id: string;
  email?: string;
  username?: string;
  [field: string]: unknown;
}

export declare class SesameClient {
  readonly api: string;
  validateSession(): Promise<SessionValidation>;
  getCurrentUser(): Promise<CurrentUser | null>;
  /** @deprecated Use `getCurrentUser()` (same result; warns once). */
  getUser(): Promise<CurrentUser | null>;
  logout(): Promise<void>;
  on<K extends EventKey>(key: K, callback: (detail: EventDetails[K]) => void): () => void;
  onAuthSuccess(callback: (detail: AuthSuccessDetail) => void): () => void;
  onAuthError(callback: (detail: AuthErrorDetail) => void): () => void;
  onLogout(callback: (detail: LogoutDetail) => void): () => void;
  onSessionExpired(callback: (detail: SessionExpiredDetail) => void): () => void;
}

export type MessageKey = string;
export type Translations = Record<string, Partial<Record<MessageKey, string>>>;

export interface RegisterOptions {
  eventPrefix?: string;
  shadow?: boolean;
  lang?: string;
  translations?: Translations;
  sessionCheckInterval?: number;
}

export declare function register(
  apiUrl: string,
  options?: RegisterOptions,
): Promise<{ sesame: SesameClient }>;

interface SesameElementAttributes {
  lang?: string;
}
interface SesameAuthAttributes extends SesameElementAttributes {
  mode?: "login" | "registration";
}

declare global {
  interface HTMLElementTagNameMap {
    "sesame-auth": HTMLElement & SesameAuthAttributes;
    "sesame-login": HTMLElement & SesameElementAttributes;
    "sesame-registration": HTMLElement & SesameElementAttributes;
    "sesame-profile": HTMLElement & SesameElementAttributes;
    "sesame-events": HTMLElement;
  }
  interface DocumentEventMap {
    "sesame-auth-success": CustomEvent<AuthSuccessDetail>;
    "sesame-auth-error": CustomEvent<AuthErrorDetail>;
    "sesame-login": CustomEvent<LoginDetail>;
    "sesame-registration": CustomEvent<RegistrationDetail>;
    "sesame-logout": CustomEvent<LogoutDetail>;
    "sesame-session-expired": CustomEvent<SessionExpiredDetail>;
  }
}

type ElementProps<A> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & A;

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
