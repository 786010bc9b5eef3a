import { AppError, type ErrorCode } from "@/lib/errors";
import { getConfig } from "@/lib/config";
import { safeRedirect } from "@/lib/hosted/redirect";
import type { Tenant } from "@/lib/tenants";

/**
 * Whether a login may return to `redirectTo`: an absolute http(s) URL without credentials whose origin is
 * one of the tenant's allowed origins (the CORS list), Sesame's own hosted pages of this tenant, or one of
 * the provider's allowed redirect URLs (same origin, and the path at or under the entry's path). Hosts are
 * compared parsed, never as string prefixes, so `https://app.example.com.evil.test` is not
 * `https://app.example.com`.
 */
export function isAllowedRedirect(tenant: Tenant, allowedUrls: string[], redirectTo: string): boolean {
  // Absolute only (the browser comes back from the provider), and first the hosted pages' rule
  // (safeRedirect): the tenant's origins, and its refusals of over-long values, whitespace, control
  // characters, backslashes and user info, which hold for every other case too.
  if (!/^https?:\/\//i.test(redirectTo)) return false;
  const refused = "";
  if (safeRedirect(tenant, redirectTo, refused) !== refused) return true;
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return false;
  }
  // The same refusals for Sesame's hosted pages and the provider's URLs: safeRedirect with this URL's own
  // origin allowed says whether anything but the origin is wrong with it.
  const anywhere = { id: tenant.id, origins: [url.origin] };
  if (safeRedirect(anywhere, redirectTo, refused) === refused) return false;
  const own = new URL(getConfig().baseUrl);
  if (url.origin === own.origin && url.pathname.startsWith(`/t/${tenant.id}/hosted/`)) return true;
  return allowedUrls.some((entry) => {
    const allowed = new URL(entry);
    if (allowed.origin !== url.origin) return false;
    const base = allowed.pathname.replace(/\/+$/, "");
    return base === "" || url.pathname === base || url.pathname.startsWith(`${base}/`);
  });
}

/** `redirectTo` with the query parameters added (Hanko appends `hanko_token`, or `error` and `error_description`). */
export function withQuery(redirectTo: string, params: Record<string, string>): string {
  const url = new URL(redirectTo);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** Hanko's `error` query values (backend thirdparty/error.go) for our codes; any other refusal is `invalid_request`. */
const HANKO_ERRORS: Partial<Record<string, string>> = {
  THIRD_PARTY_ACCESS_DENIED: "access_denied",
  THIRD_PARTY_EMAIL_UNVERIFIED: "unverified_email",
  THIRD_PARTY_EMAIL_MISSING: "missing_email",
  THIRD_PARTY_LINKING_DISABLED: "user_conflict",
  CONFLICT: "user_conflict",
  IDENTITY_ALREADY_LINKED: "user_conflict",
  IDENTITY_LINKED_ELSEWHERE: "user_conflict",
  SIGN_UP_DISABLED: "signup_disabled",
  EMAIL_LIMIT_REACHED: "email_maxnum",
};

/**
 * Hanko's `error` and `error_description` for a failed third-party or SAML login. The description is the
 * error's first detail, which names the failed check (further details are for the audit log only). A
 * provider failure tells the browser only the provider's own OAuth error code: the rest (addresses the
 * SSRF guard refused, network and TLS errors, the library's words) is not for any stranger.
 */
export function errorQuery(error: unknown): Record<string, string> {
  if (!(error instanceof AppError) || error.code === "INTERNAL" || error.code === "DATABASE_UNAVAILABLE") {
    return { error: "server_error", error_description: "an internal error has occurred" };
  }
  const first = error.details[0] ?? "";
  const description =
    error.code !== "THIRD_PARTY_PROVIDER_ERROR"
      ? first || error.message
      : /^[a-z_]+: /.test(first)
        ? first
        : "the provider's answer could not be used";
  return { error: HANKO_ERRORS[error.code] ?? "invalid_request", error_description: description };
}

/** `redirectTo` with Hanko's error query for a failed login (third party and SAML alike). */
export function errorRedirect(redirectTo: string, error: unknown): string {
  return withQuery(redirectTo, errorQuery(error));
}

/**
 * A refusal from lib/identities (which names only its code) with the failed check spelled out:
 * `reasons[code]` is `[for the browser, for the audit log]`. errorQuery shows the first detail; the audit
 * record's reason joins them all. Errors that already carry details, and other codes, pass unchanged.
 */
export type RefusalReasons = Partial<Record<ErrorCode, readonly [browser: string, audit: string]>>;

export function explainRefusal(error: unknown, reasons: RefusalReasons): unknown {
  if (!(error instanceof AppError) || error.details.length > 0) return error;
  const reason = reasons[error.code];
  if (!reason) return error;
  return new AppError(error.code, error.message, { details: [...reason], cause: error });
}
