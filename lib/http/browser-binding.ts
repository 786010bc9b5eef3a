import type { BrowserProof } from "@/lib/one-time-tokens";
import { samlCookieName } from "@/lib/saml";
import { thirdPartyCookieName } from "@/lib/thirdparty";
import { requestCookie } from "./redirect";

/**
 * The binding cookies a request carries (the third-party start's and the SAML start's): what a token
 * exchange shows, beside the flow's `code_verifier`, to prove it comes from the browser that started the
 * sign-in. A name sent twice counts as absent (requestCookie: cookie tossing).
 */
export function bindingCookies(req: Request): string[] {
  return [thirdPartyCookieName(), samlCookieName()]
    .map((name) => requestCookie(req, name))
    .filter((value): value is string => value !== undefined && value !== "");
}

/** The proof of `POST /token`, which has no `code_verifier`: the cookies only. */
export const cookieProof = (req: Request): BrowserProof => ({ cookies: bindingCookies(req) });
