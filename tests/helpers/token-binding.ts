import { sha256Hex } from "@/lib/crypto";
import { BROWSER_COOKIE } from "@/lib/thirdparty";

/** A browser's binding cookie value (43 base64url characters, as a start makes them). */
export const THIS_BROWSER = "t".repeat(43);
/** Another browser's. */
export const OTHER_BROWSER = "o".repeat(43);

/** The binding of a token minted directly in a test, for `browser`. */
export const bindingOf = (browser = THIS_BROWSER) => ({ browserHash: sha256Hex(browser) });

/** A `Cookie` header entry with `browser`'s third-party binding cookie (plain name: tests run on http). */
export const bindingCookie = (browser = THIS_BROWSER) => `${BROWSER_COOKIE}=${browser}`;
