import { getConfig } from "@/lib/config";
import type { Tenant } from "@/lib/tenants";

/**
 * Whether a login may return to `redirectTo`: an absolute http(s) URL without credentials whose origin is
 * one of the tenant's allowed origins (the CORS list), Sesame's own hosted pages of this tenant, or one of
 * the provider's allowed redirect URLs (same origin, and the path at or under the entry's path). Hosts are
 * compared parsed, never as string prefixes, so `https://app.example.com.evil.test` is not
 * `https://app.example.com`.
 */
export function isAllowedRedirect(tenant: Tenant, allowedUrls: string[], redirectTo: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectTo);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (!url.hostname || url.username || url.password) return false;
  if (tenant.origins.includes(url.origin)) return true;
  const own = new URL(getConfig().baseUrl);
  if (url.origin === own.origin && url.pathname.startsWith(`/t/${tenant.id}/`)) return true;
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
