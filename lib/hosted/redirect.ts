/** The longest `redirect_to` considered at all; anything longer is refused (2048, like common URL limits). */
export const MAX_REDIRECT_LENGTH = 2048;

/** What `safeRedirect` needs of a tenant. */
export interface RedirectTenant {
  id: string;
  /** Exact origins (`scheme://host[:port]`), as stored on the tenant. */
  origins: readonly string[];
}

/** Resolves relative paths; never part of an answer (only path, query and fragment are kept). */
const PLACEHOLDER_ORIGIN = "https://sesame.invalid";

/**
 * Where the hosted pages may send the browser for a `redirect_to` value: the value, normalised, when it is
 *
 * - an absolute `http(s)://` URL whose exact origin is one of the tenant's origins, without user info; or
 * - a path on Sesame under the tenant's own URL (`/t/{tenant_id}` or below), starting with a single `/`;
 *
 * else `fallback`. Refused as well: values over 2048 characters, any whitespace, control character or
 * backslash (browsers drop or reinterpret them: `/\evil.test` and `/\t/evil.test` are `//evil.test`),
 * protocol-relative `//host`, other schemes (`javascript:`, `data:`, …) and `..` that climbs out of the
 * tenant's URL. Pure: no I/O.
 */
export function safeRedirect(tenant: RedirectTenant, raw: string | undefined, fallback: string): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_REDIRECT_LENGTH) return fallback;
  // Whitespace, C0/C1 controls, DEL and backslashes: refused outright rather than normalised.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f\\]/.test(raw)) return fallback;

  if (raw.startsWith("/")) return samePath(tenant, raw) ?? fallback;
  if (/^https?:\/\//i.test(raw)) return allowedAbsolute(tenant, raw) ?? fallback;
  return fallback;
}

function allowedAbsolute(tenant: RedirectTenant, raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "" || hasUserInfo(raw)) return undefined;
  if (!tenant.origins.includes(url.origin)) return undefined;
  return url.href;
}

/** An `@` in the authority part (`https://good.test@evil.test`, `https://:@good.test`), even an empty one. */
function hasUserInfo(raw: string): boolean {
  const authority = raw.replace(/^https?:\/\//i, "").split(/[/?#]/, 1)[0] ?? "";
  return authority.includes("@");
}

function samePath(tenant: RedirectTenant, raw: string): string | undefined {
  if (raw.startsWith("//")) return undefined;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return undefined;
  // Checked after resolving, so `/t/{id}/../other` (or `%2e%2e`) cannot climb out of the tenant's URL.
  const base = `/t/${tenant.id}`.toLowerCase();
  const path = url.pathname.toLowerCase();
  if (path !== base && !path.startsWith(`${base}/`)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
