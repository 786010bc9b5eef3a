/**
 * Sesame elements: `register(apiUrl, options)` defines `<sesame-auth>`, `<sesame-login>`,
 * `<sesame-registration>`, `<sesame-profile>` and `<sesame-events>` and answers the SDK client.
 * Served by Sesame at `/elements/v1/sesame-elements.js` (one ES module).
 */
import { SesameClient } from "./client";
import { SesameAuth, SesameEvents, SesameLogin, SesameProfile, SesameRegistration } from "./elements";
import { configure, currentConfig } from "./config";
import type { Translations } from "./i18n";
import { cssFor, TAGS } from "./styles";

export { SesameClient, SesameRequestError } from "./client";
export type { CurrentUser, FlowAction, FlowInput, FlowState, SessionValidation } from "./client";
export { EVENTS, eventName } from "./events";
export type {
  AuthErrorDetail,
  AuthSuccessDetail,
  EventDetails,
  EventKey,
  FlowName,
  LoginDetail,
  LogoutDetail,
  RegistrationDetail,
  SessionClaims,
  SessionExpiredDetail,
} from "./events";
export type { SesameAuthAttributes, SesameDocumentEvents, SesameElementAttributes } from "./dom-typings";
export { BUILT_IN as translations } from "./i18n";
export type { MessageKey, Messages, Translations } from "./i18n";

export interface RegisterOptions {
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

const ELEMENTS = {
  "sesame-auth": SesameAuth,
  "sesame-login": SesameLogin,
  "sesame-registration": SesameRegistration,
  "sesame-profile": SesameProfile,
  "sesame-events": SesameEvents,
} as const;

/** Defines the elements (once per page) and answers the SDK client for `apiUrl` (the tenant URL). */
export async function register(
  apiUrl: string,
  options: RegisterOptions = {},
): Promise<{ sesame: SesameClient }> {
  const existing = currentConfig();
  if (existing) {
    if (existing.client.api !== apiUrl.replace(/\/+$/, "")) {
      throw new Error(`Sesame elements are already registered for ${existing.client.api}`);
    }
    return { sesame: existing.client };
  }
  const prefix = options.eventPrefix ?? "sesame";
  const client = new SesameClient(apiUrl, {
    eventPrefix: prefix,
    ...(options.sessionCheckInterval === undefined
      ? {}
      : { sessionCheckInterval: options.sessionCheckInterval }),
  });
  const shadow = options.shadow ?? true;
  configure({ client, prefix, shadow, lang: options.lang, translations: options.translations ?? {} });
  if (!shadow && !document.getElementById("sesame-elements-style")) {
    const style = document.createElement("style");
    style.id = "sesame-elements-style";
    style.textContent = cssFor(TAGS.join(", "));
    document.head.append(style);
  }
  for (const [tag, element] of Object.entries(ELEMENTS)) {
    if (!customElements.get(tag)) customElements.define(tag, element);
  }
  return { sesame: client };
}
