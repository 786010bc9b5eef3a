import { getConfig } from "@/lib/config";

/**
 * The name of a cookie that binds a sign-in to the browser that started it (the third-party start's, the
 * SAML start's): `__Host-<name>` on an https deployment, which browsers accept only when set by this very
 * origin with Secure, `Path=/` and no Domain, so a sibling subdomain cannot plant its own (cookie tossing);
 * the plain name on http (http://localhost in development), where the prefix's Secure cannot hold.
 */
export function bindingCookieName(name: string): string {
  return getConfig().baseUrl.startsWith("https:") ? `__Host-${name}` : name;
}

/**
 * Binding cookies are sent to every path of Sesame's origin (`__Host-` requires `Path=/`): the token
 * exchange (`POST /token`, the flows' `exchange_token`) checks them as well as the callback or ACS.
 */
export const BINDING_COOKIE_PATH = "/";

/** The third-party start's binding cookie, by its base name. */
export const BROWSER_COOKIE = "sesame_thirdparty";

/** The third-party binding cookie's name on the wire. */
export const thirdPartyCookieName = () => bindingCookieName(BROWSER_COOKIE);
