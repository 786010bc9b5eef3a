/** The hosted pages of a tenant, under its URL but apart from the flow API's `{tenant_url}/login`. */
export type HostedPage = "login" | "profile" | "logout";

/** `/t/{tenant_id}/hosted/{page}` with the query values that are set (in the order given). */
export function hostedPath(
  tenantId: string,
  page: HostedPage,
  query: Record<string, string | undefined> = {},
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, value);
  const encoded = search.toString();
  const suffix = encoded ? `?${encoded}` : "";
  return `/t/${encodeURIComponent(tenantId)}/hosted/${page}${suffix}`;
}

/** The first value of a search parameter Next.js hands over as a string or an array. */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether `target` is one of this tenant's OpenID Provider interactions (lib/openid: `/t/{tenant_id}/oauth/
 * interaction/{uid}`, a path on this origin), which signs the browser in from its Sesame session by itself.
 */
export function isOpenIdInteraction(target: string, tenantId: string): boolean {
  if (!target.startsWith("/") || target.startsWith("//")) return false; // on this origin only
  try {
    const path = new URL(target, "https://sesame.invalid").pathname.toLowerCase();
    return path.startsWith(`/t/${encodeURIComponent(tenantId)}/oauth/interaction/`.toLowerCase());
  } catch {
    return false;
  }
}

/** Whether `target` (a path or absolute URL) is this tenant's hosted `page`, whatever its query. */
export function isHostedPage(target: string, tenantId: string, page: HostedPage): boolean {
  try {
    const path = new URL(target, "https://sesame.invalid").pathname.replace(/\/+$/, "").toLowerCase();
    return path === hostedPath(tenantId, page).toLowerCase();
  } catch {
    return false;
  }
}
