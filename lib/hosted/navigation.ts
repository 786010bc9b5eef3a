/** The request headers `isSameOriginNavigation` reads (a `Headers` or Next.js' `headers()`). */
export interface NavigationHeaders {
  get(name: string): string | null;
}

/**
 * Whether the browser came to a hosted page from Sesame's own origin, or the user opened it directly
 * (typed, bookmarked): `Sec-Fetch-Site` is `same-origin` or `none`; without that header (older browsers,
 * other clients), the `Referer`'s origin is Sesame's public origin (`baseUrl`). Anything else (another
 * site, a sibling subdomain, no signal at all) is not. The logout page signs out by itself only then, so
 * another site cannot sign a user out by linking to it. Pure.
 */
export function isSameOriginNavigation(headers: NavigationHeaders, baseUrl: string): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const referer = headers.get("referer");
  if (!referer) return false;
  try {
    return new URL(referer).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
